import { expressionBuilder, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
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
 * Words shorter than this are matched as the start of a word only: pg_trgm's similarity of a
 * two- or three-letter word finds too much ("car" is half of "cafe").
 */
const MIN_FUZZY_WORD = 4;

/**
 * How similar a stretch of a product's text must be to a word to match it. pg_trgm's default, 0.6,
 * misses a letter dropped from a six-letter word ("vintge" is 0.57 of "vintage").
 */
const WORD_SIMILARITY = 0.5;

/**
 * Runs a product search in a transaction whose `<%` takes WORD_SIMILARITY (a setting of the
 * transaction only, so every connection of the pool keeps the default).
 */
export function withSearchSettings<T>(db: Db, search: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY)}, true)`.execute(trx);
    return search(trx);
  });
}

/**
 * One word of a storefront search (docs/adr/0032-search-ranking.md): a full-text word of the
 * product that starts with it, or, for a word of MIN_FUZZY_WORD letters or more, a stretch of its
 * text pg_trgm finds similar enough (`<%`, WORD_SIMILARITY, set by withSearchSettings), which forgives a typo
 * or a missing letter. Both are served by the GIN indexes of migration 0023. The word goes in as
 * a bound parameter; it holds letters and digits only (searchWords), so it is one tsquery word.
 */
function wordMatches(word: string): RawBuilder<boolean> {
  const prefix = sql<boolean>`products.search_vector @@ to_tsquery('simple', ${`${word}:*`})`;
  return word.length < MIN_FUZZY_WORD ? prefix : sql<boolean>`(${prefix} OR ${word} <% products.search_text)`;
}

/** Products found by any word of a search (words from searchWords; at least one). */
export function productMatches(words: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(words.map(wordMatches), sql` OR `)})`;
}

/**
 * How well a found product matches, for sorting by relevance: first the number of words its name
 * matches (name matches rank first), then the words its text matches, weighted by where (name,
 * then tags and category, then description), then how similar the text is to the words.
 */
export function productRelevance(words: readonly string[]) {
  const nameHits = sql.join(
    words.map(
      (word) =>
        sql`(to_tsvector('simple', products.name) @@ to_tsquery('simple', ${`${word}:*`}) OR word_similarity(${word}, lower(products.name)) >= ${WORD_SIMILARITY})::int`,
    ),
    sql` + `,
  );
  const anyWord = words.map((word) => `${word}:*`).join(' | ');
  const similarity = sql.join(
    words.map((word) => sql`word_similarity(${word}, products.search_text)`),
    sql` + `,
  );
  return {
    nameHits: sql<number>`(${nameHits})`,
    score: sql<number>`(ts_rank(products.search_vector, to_tsquery('simple', ${anyWord})) + ${similarity})`,
  };
}
