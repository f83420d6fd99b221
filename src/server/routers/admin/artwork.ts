import { sql } from 'kysely';
import { POPULAR_TAGS_LIMIT } from '../../../shared/constants';
import { artworkCreateInput, artworkIdInput, artworkListInput, artworkUpdateInput } from '../../../shared/schemas/admin-artwork';
import { assertFound, containsPattern } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

const COLUMNS = ['id', 'name', 'description', 'artwork_url', 'tags', 'created_by', 'created_at'] as const;

export const adminArtworkRouter = router({
  /** Newest first, filtered on the server: name or description contains the text, and the tag (both case-insensitive). */
  list: adminProcedure.input(artworkListInput).query(({ ctx, input }) => {
    let query = ctx.db.selectFrom('artwork_library').select(COLUMNS);
    if (input?.search) {
      const pattern = containsPattern(input.search);
      query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
    }
    // Tags are stored lowercase and the input is lowercased, so equality is case-insensitive.
    if (input?.tag) query = query.where(sql<boolean>`tags @> ${sql.val([input.tag])}::text[]`);
    return query.orderBy('created_at', 'desc').orderBy('id').execute();
  }),

  /**
   * Every distinct tag, sorted (the filter dropdown), and the first 10 distinct tags in library
   * order, newest artwork first (the forms' popular tags).
   */
  tags: adminProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db
      .selectFrom('artwork_library')
      .select('tags')
      .where('tags', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    const inOrder = [...new Set(rows.flatMap((row) => row.tags ?? []))];
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

  update: adminProcedure.input(artworkUpdateInput).mutation(async ({ ctx, input: { id, ...fields } }) => {
    const row = await ctx.db
      .updateTable('artwork_library')
      .set({ ...fields, updated_at: new Date() })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return assertFound(row, 'Artwork');
  }),

  delete: adminProcedure.input(artworkIdInput).mutation(async ({ ctx, input }) => {
    const row = await ctx.db.deleteFrom('artwork_library').where('id', '=', input.id).returning('id').executeTakeFirst();
    return assertFound(row, 'Artwork');
  }),
});
