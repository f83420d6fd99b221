// The storefront's search query (docs/adr/0032-search-ranking.md), read the same way by the page
// and the server: a query is cut to SEARCH_MAX_LENGTH characters and searched by its words.

export const SEARCH_MAX_LENGTH = 100;
/** Words beyond these are ignored: each one is a condition of the query. */
export const SEARCH_MAX_WORDS = 8;

/** The query as searched: cut to SEARCH_MAX_LENGTH characters, spaces trimmed. */
export const searchQuery = (raw: string): string => raw.slice(0, SEARCH_MAX_LENGTH).trim();

/**
 * The distinct words of a query, lower case: runs of letters and digits, of two or more (a single
 * letter would find every word it starts). None (an empty query, or only punctuation) means no
 * search at all: the page shows the shop.
 */
export function searchWords(raw: string): string[] {
  const words = searchQuery(raw)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}
