import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  ADMIN_PRODUCTS_PAGE_SIZE,
  CATEGORY_REQUIRED,
  DUPLICATE_SKU,
  DUPLICATE_SLUG,
  PRODUCT_NOT_FOUND,
  productIdInput,
  productInput,
  productListSearch,
  productSetActiveInput,
  productUpdateInput,
  type ProductInput,
} from '../../../shared/schemas/admin-products';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { adminProcedure, router } from '../../trpc/init';

// Admin products (SPEC §2, §7): every product whatever its state, newest first, paged on the server.

const productColumns = [
  'products.id',
  'products.sku_number',
  'products.slug',
  'products.name',
  'products.description',
  'products.price',
  'products.image_url',
  'products.front_art_url',
  'products.back_art_url',
  'products.chest_position',
  'products.front_mockup_url',
  'products.back_mockup_url',
  'products.default_mockup_side',
  'products.available_sizes',
  'products.tags',
  'products.is_featured',
  'products.is_active',
  'products.category_id',
  'products.created_at',
  'products.updated_at',
] as const;

/** LIKE pattern matching `text` anywhere; %, _ and \ in the text match themselves. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Turns a broken unique or foreign key rule into the message the admin sees; anything else is rethrown. */
function explainWriteError(error: unknown): never {
  if (isUniqueViolation(error)) {
    const constraint = (error as { constraint?: string }).constraint ?? '';
    const message = constraint.includes('sku') ? DUPLICATE_SKU : constraint.includes('slug') ? DUPLICATE_SLUG : 'This product already exists';
    throw new TRPCError({ code: 'CONFLICT', message, cause: error });
  }
  if (isForeignKeyViolation(error)) throw new TRPCError({ code: 'BAD_REQUEST', message: CATEGORY_REQUIRED, cause: error });
  throw error;
}

const columnsOf = (product: ProductInput) => ({ ...product, price: product.price.toFixed(2) });

export const adminProductsRouter = router({
  list: adminProcedure.input(productListSearch).query(async ({ ctx, input }) => {
    let filtered = ctx.db.selectFrom('products');
    if (input.search) {
      const pattern = containsPattern(input.search);
      filtered = filtered.where((eb) => eb.or([eb('products.name', 'ilike', pattern), eb('products.description', 'ilike', pattern)]));
    }
    if (input.categoryId) filtered = filtered.where('products.category_id', '=', input.categoryId);

    const [items, count] = await Promise.all([
      filtered
        .innerJoin('categories', 'categories.id', 'products.category_id')
        .select([
          'products.id',
          'products.sku_number',
          'products.name',
          'products.price',
          'products.image_url',
          'products.is_active',
          'products.is_featured',
          'products.created_at',
          'categories.name as category_name',
        ])
        .orderBy('products.created_at', 'desc')
        .orderBy('products.id', 'desc')
        .limit(ADMIN_PRODUCTS_PAGE_SIZE)
        .offset((input.page - 1) * ADMIN_PRODUCTS_PAGE_SIZE)
        .execute(),
      filtered.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    ]);
    return {
      items,
      total: count.total,
      page: input.page,
      pageSize: ADMIN_PRODUCTS_PAGE_SIZE,
      pageCount: Math.max(1, Math.ceil(count.total / ADMIN_PRODUCTS_PAGE_SIZE)),
    };
  }),

  /** Every category, active or not, for the list's filter and the form's select. */
  categoryOptions: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('categories').select(['id', 'name', 'is_active']).orderBy('sort_order').execute(),
  ),

  byId: adminProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = await ctx.db.selectFrom('products').select(productColumns).where('id', '=', input.id).executeTakeFirst();
    if (!product) throw new TRPCError({ code: 'NOT_FOUND', message: PRODUCT_NOT_FOUND });
    return product;
  }),

  create: adminProcedure.input(productInput).mutation(async ({ ctx, input }) => {
    try {
      return await ctx.db.insertInto('products').values(columnsOf(input)).returning('id').executeTakeFirstOrThrow();
    } catch (error) {
      explainWriteError(error);
    }
  }),

  update: adminProcedure.input(productUpdateInput).mutation(async ({ ctx, input }) => {
    let updated;
    try {
      updated = await ctx.db
        .updateTable('products')
        .set({ ...columnsOf(input.product), updated_at: new Date() })
        .where('id', '=', input.id)
        .returning('id')
        .executeTakeFirst();
    } catch (error) {
      explainWriteError(error);
    }
    if (!updated) throw new TRPCError({ code: 'NOT_FOUND', message: PRODUCT_NOT_FOUND });
    return updated;
  }),

  setActive: adminProcedure.input(productSetActiveInput).mutation(async ({ ctx, input }) => {
    const updated = await ctx.db
      .updateTable('products')
      .set({ is_active: input.isActive, updated_at: new Date() })
      .where('id', '=', input.id)
      .returning(['id', 'is_active'])
      .executeTakeFirst();
    if (!updated) throw new TRPCError({ code: 'NOT_FOUND', message: PRODUCT_NOT_FOUND });
    return updated;
  }),

  /** Order lines keep their copied name, image and price; their product link becomes empty (ON DELETE SET NULL). */
  delete: adminProcedure.input(productIdInput).mutation(async ({ ctx, input }) => {
    const deleted = await ctx.db.deleteFrom('products').where('id', '=', input.id).returning('id').executeTakeFirst();
    if (!deleted) throw new TRPCError({ code: 'NOT_FOUND', message: PRODUCT_NOT_FOUND });
    return deleted;
  }),
});
