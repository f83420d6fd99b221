import { expressionBuilder, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { searchWords } from '../../shared/search';
import { containsPattern } from '../trpc/errors';
import type { Db } from './database';
import type { DB } from './schema';

type NamedAndDescribed = 'products' | 'artwork_library';

/**
 * The back office's search of products and artwork: the name or the description contains the
 * text, case-insensitively. Columns are qualified, so the query may join tables with the same names.
 */
export function nameOrDescriptionContains(table: NamedAndDescribed, text: string): Expression<SqlBool> {
  const eb = expressionBuilder<DB, NamedAndDescribed>();
  const pattern = containsPattern(text);
  return eb.or([eb(`${table}.name`, 'ilike', pattern), eb(`${table}.description`, 'ilike', pattern)]);
}

/**
 * Words shorter than this, or of digits only, are matched as the start of a word only: pg_trgm's
 * similarity of a short word finds too much ("car" is half of "cafe", "1000" of "1001").
 */
const MIN_FUZZY_WORD = 4;
/** How similar (pg_trgm's similarity) a catalog word must be to a searched one to stand for it. */
const WORD_SIMILARITY = 0.4;
/** The catalog words a searched word may stand for, the most similar first. */
const MAX_WORDS_PER_WORD = 5;

/** A word in a tsquery: quoted, as catalog words may hold "-" or "." (a searched word never does). */
const tsWord = (word: string) => `'${word.replace(/'/g, "''")}'`;

/**
 * A storefront search as a full-text query (docs/adr/0032-search-ranking.md): each searched word
 * as the start of a catalog word, or, from MIN_FUZZY_WORD letters, any catalog word pg_trgm finds
 * similar enough to it ("motorcyle" finds "motorcycle"), looked up in search_words through its
 * trigram index. A product matching any of them is found. The query goes to the database as a
 * bound parameter.
 */
export async function productSearchQuery(db: Db, words: readonly string[]): Promise<string> {
  const fuzzy = words.filter((word) => word.length >= MIN_FUZZY_WORD && /\p{L}/u.test(word));
  // `%` takes pg_trgm's default threshold (0.3), which its index serves; the stricter one is a filter.
  const similar =
    fuzzy.length === 0
      ? []
      : (
          await sql<{ searched: string; word: string }>`
            SELECT searched, word FROM unnest(${fuzzy}::text[]) AS searched
            CROSS JOIN LATERAL (
              SELECT word FROM search_words
              WHERE word % searched AND similarity(word, searched) >= ${WORD_SIMILARITY}
              ORDER BY similarity(word, searched) DESC, word LIMIT ${MAX_WORDS_PER_WORD}
            ) AS near`.execute(db)
        ).rows;
  const terms = words.flatMap((word) => [
    `${tsWord(word)}:*`,
    ...similar.filter((row) => row.searched === word).map((row) => tsWord(row.word)),
  ]);
  return [...new Set(terms)].join(' | ');
}

/** Products the query (productSearchQuery's) finds, through the GIN index on their words. */
export function productMatches(query: string): RawBuilder<boolean> {
  return sql<boolean>`products.search_vector @@ to_tsquery('simple', ${query})`;
}

/**
 * How well a found product matches, for sorting by relevance: first whether its name matches
 * (name matches rank first), then full-text rank, its words weighted by where they are (name,
 * then tags and category, then description).
 */
export function productRelevance(query: string) {
  return {
    nameHits: sql<number>`(ts_filter(products.search_vector, '{a}') @@ to_tsquery('simple', ${query}))::int`,
    score: sql<number>`ts_rank(products.search_vector, to_tsquery('simple', ${query}))`,
  };
}

/** The admin Products list's filters, as its search field and category select give them. */
export interface AdminProductFilters {
  search?: string | undefined;
  categoryId?: string | undefined;
}

/**
 * What the admin Products list shows for its filters: the storefront's search (typos forgiven) or
 * the name or description containing the text as typed, in the category. The list, its bulk
 * actions ("all N matching") and its CSV export all filter through this, so they name the same
 * products. `search` is the full-text query, for sorting by relevance (null without words).
 */
export async function adminProductsMatching(db: Db, filters: AdminProductFilters) {
  const words = searchWords(filters.search ?? '');
  const search = words.length > 0 ? await productSearchQuery(db, words) : null;
  const conditions: Expression<SqlBool>[] = [];
  if (filters.search) {
    const contains = nameOrDescriptionContains('products', filters.search);
    conditions.push(search ? sql<boolean>`(${contains} or ${productMatches(search)})` : contains);
  }
  if (filters.categoryId) conditions.push(sql<boolean>`products.category_id = ${filters.categoryId}`);
  return { search, conditions };
}
