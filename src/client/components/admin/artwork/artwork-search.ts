import { pageNumber, searchParams, text } from '../../../search-params';

// Typed URL search params of /admin/artwork, so a search, tag and page survive a reload and can
// be shared. A hand-edited or stale value falls back instead of failing the page.
export const artworkSearchSchema = searchParams<{ search?: string; tag?: string; page?: number }>()((raw) => ({
  search: text(raw.search, 200),
  tag: text(raw.tag, 50),
  page: pageNumber(raw.page),
}));
export type ArtworkSearch = ReturnType<typeof artworkSearchSchema>;

/** The admin.artwork.list input for these params. */
export const listInputOf = (search: ArtworkSearch) => ({
  search: search.search || undefined,
  tag: search.tag || undefined,
  page: search.page ?? 1,
});
