import { sql } from 'kysely';
import { POPULAR_TAGS_LIMIT } from '../../../shared/constants';
import {
  ARTWORK_CHANGED_ELSEWHERE,
  ARTWORK_PAGE_SIZE,
  artworkCreateInput,
  artworkIdInput,
  artworkListInput,
  artworkUpdateInput,
} from '../../../shared/schemas/admin-artwork';
import { countRows } from '../../db/count';
import { nameOrDescriptionContains } from '../../db/search';
import { assertFound } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';
import { updateById } from '../../trpc/update';

const COLUMNS = ['id', 'name', 'description', 'artwork_url', 'tags', 'created_by', 'created_at', 'updated_at'] as const;

export const adminArtworkRouter = router({
  /**
   * One page of the library, newest first, filtered on the server: name or description contains
   * the text, and the tag (both case-insensitive).
   */
  list: adminProcedure.input(artworkListInput).query(async ({ ctx, input }) => {
    let filtered = ctx.db.selectFrom('artwork_library');
    if (input.search) filtered = filtered.where(nameOrDescriptionContains('artwork_library', input.search));
    // Tags are stored lowercase and the input is lowercased, so equality is case-insensitive.
    if (input.tag) filtered = filtered.where(sql<boolean>`tags @> ${sql.val([input.tag])}::text[]`);
    return readPage(await countRows(filtered), input.page, ARTWORK_PAGE_SIZE, () =>
      filtered.select(COLUMNS).orderBy('created_at', 'desc').orderBy('id'),
    );
  }),

  /**
   * Every distinct tag, sorted (the filter dropdown), and the first 10 distinct tags in library
   * order, newest artwork first and each artwork's tags in their order (the forms' popular
   * tags). Worked out in the database, which sends each tag once, not every artwork's tags.
   */
  tags: adminProcedure.query(async ({ ctx }) => {
    const { rows } = await sql<{ tag: string }>`
      SELECT tag FROM (
        SELECT t.tag, row_number() OVER (ORDER BY a.created_at DESC, a.id, t.ord) AS place
        FROM artwork_library a CROSS JOIN LATERAL unnest(a.tags) WITH ORDINALITY AS t(tag, ord)
      ) placed
      GROUP BY tag
      ORDER BY min(place)
    `.execute(ctx.db);
    const inOrder = rows.map((row) => row.tag);
    return { all: [...inOrder].sort((a, b) => a.localeCompare(b)), popular: inOrder.slice(0, POPULAR_TAGS_LIMIT) };
  }),

  /** created_by is the signed-in admin, never taken from the input. */
  create: adminProcedure.input(artworkCreateInput).mutation(({ ctx, input }) =>
    ctx.db
      .insertInto('artwork_library')
      .values({ ...input, created_by: ctx.session.user.id })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow(),
  ),

  /** Only the artwork as the form loaded it: one changed since (another tab, another admin) is not written over. */
  update: adminProcedure
    .input(artworkUpdateInput)
    .mutation(({ ctx, input: { id, updatedAt, ...fields } }) =>
      updateById(ctx.db, 'artwork_library', id, fields, COLUMNS, 'Artwork', { updatedAt, changedElsewhere: ARTWORK_CHANGED_ELSEWHERE }),
    ),

  delete: adminProcedure.input(artworkIdInput).mutation(async ({ ctx, input }) => {
    const row = await ctx.db.deleteFrom('artwork_library').where('id', '=', input.id).returning('id').executeTakeFirst();
    return assertFound(row, 'Artwork');
  }),
});
