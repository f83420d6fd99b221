import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import { containsPattern } from '../trpc/errors';
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
