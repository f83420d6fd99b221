import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import {
  ADMIN_PRODUCTS_PAGE_SIZE,
  bulkInput,
  bulkTarget,
  CATEGORY_REQUIRED,
  DUPLICATE_SKU,
  DUPLICATE_SLUG,
  NOTHING_ON_OFFER,
  PRODUCT_CHANGED_ELSEWHERE,
  productIdInput,
  productInput,
  productListSearch,
  productSetActiveInput,
  productToPrintMessage,
  productUpdateInput,
  type ProductInput,
} from '../../../shared/schemas/admin-products';
import { PRINT_QUEUE_STATUSES } from '../../../shared/schemas/admin-orders';
import { applyBulkAction, bulkDeletePreview } from '../../catalog/bulk-edit';
import { exportProductsCsv } from '../../catalog/product-csv';
import { isForeignKeyViolation } from '../../db/errors';
import { countRows } from '../../db/count';
import { PRODUCT_PAGE_COLUMNS } from '../../db/product-columns';
import { adminProductsMatching, productRelevance } from '../../db/search';
import { assertFound, fieldError, withUniqueColumns } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';
import { readPage } from '../../trpc/paging';
import { coloursForForm, hasVariantOnOffer, saveColours } from '../../products/colours';
import { updateById } from '../../trpc/update';

// Admin products (docs/PRODUCT.md § Screens and Reads and writes): every product whatever its state, newest first, paged on the server.

const productColumns = [
  ...PRODUCT_PAGE_COLUMNS,
  'products.front_art_url',
  'products.back_art_url',
  'products.is_featured',
  'products.is_active',
  'products.category_id',
  'products.created_at',
  'products.updated_at',
] as const;

/** A taken SKU or slug, or a category that is gone, is refused on the form field it concerns. */
async function checkedWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await withUniqueColumns(write, { sku_number: DUPLICATE_SKU, slug: DUPLICATE_SLUG });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw fieldError('BAD_REQUEST', 'category_id', CATEGORY_REQUIRED);
    throw error;
  }
}

const columnsOf = ({ colours: _colours, ...product }: ProductInput) => ({ ...product, price: product.price.toFixed(2) });

export const adminProductsRouter = router({
  /**
   * The storefront's search (typos forgiven, name matches first) or the name or description
   * containing the text as typed (a SKU-like fragment, a "%"), newest first without a search.
   */
  list: adminProcedure.input(productListSearch).query(async ({ ctx, input }) => {
    const { search, conditions } = await adminProductsMatching(ctx.db, input);
    let filtered = ctx.db.selectFrom('products');
    for (const condition of conditions) filtered = filtered.where(condition);

    return readPage(await countRows(filtered), input.page, ADMIN_PRODUCTS_PAGE_SIZE, () => {
      let rows = filtered.innerJoin('categories', 'categories.id', 'products.category_id').select([
        'products.id',
        'products.sku_number',
        'products.name',
        'products.price',
        'products.image_url',
        'products.is_active',
        'products.is_featured',
        'products.created_at',
        'categories.name as category_name',
        // The list's swatches: each colour's name and hex, in the product's order.
        sql<{ name: string; hex: string }[]>`coalesce((
            select jsonb_agg(jsonb_build_object('name', c.name, 'hex', c.hex) order by c.sort_order)
            from product_colours c where c.product_id = products.id), '[]'::jsonb)`.as('colours'),
      ]);
      if (search) {
        const relevance = productRelevance(search);
        rows = rows.orderBy(relevance.nameHits, 'desc').orderBy(relevance.score, 'desc');
      }
      return rows.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc');
    });
  }),

  /** Every category, active or not, for the list's filter and the form's select. */
  categoryOptions: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('categories').select(['id', 'name', 'is_active']).orderBy('sort_order').execute(),
  ),

  /** The product with its colours (each with its switches and SKUs) as the form edits them. */
  byId: adminProcedure.input(productIdInput).query(async ({ ctx, input }) => {
    const product = assertFound(
      await ctx.db.selectFrom('products').select(productColumns).where('id', '=', input.id).executeTakeFirst(),
      'Product',
    );
    return { ...product, colours: await coloursForForm(ctx.db, product.id) };
  }),

  create: adminProcedure.input(productInput).mutation(({ ctx, input }) =>
    checkedWrite(() =>
      ctx.db.transaction().execute(async (trx) => {
        const created = await trx.insertInto('products').values(columnsOf(input)).returning('id').executeTakeFirstOrThrow();
        if (input.colours) await saveColours(trx, created.id, input.colours);
        return created;
      }),
    ),
  ),

  update: adminProcedure.input(productUpdateInput).mutation(({ ctx, input: { id, updatedAt, ...product } }) =>
    // Only the product as the form loaded it: mockups saved, or a toggle made, in another tab since
    // would otherwise be written back to what the form still holds.
    checkedWrite(() =>
      ctx.db.transaction().execute(async (trx) => {
        const saved = await updateById(trx, 'products', id, columnsOf(product), ['id'], 'Product', {
          updatedAt,
          changedElsewhere: PRODUCT_CHANGED_ELSEWHERE,
        });
        if (product.colours) await saveColours(trx, id, product.colours);
        // Colours kept as they were: the sizes may have changed, and an active product needs one on offer.
        else if (product.is_active && !(await hasVariantOnOffer(trx, id))) throw fieldError('BAD_REQUEST', 'colours', NOTHING_ON_OFFER);
        return saved;
      }),
    ),
  ),

  /** Every product, or those the list's filters show, as Shopify's product CSV (ADR 0034). */
  exportCsv: adminProcedure
    .input(productListSearch.omit({ page: true }))
    .query(async ({ ctx, input }) => ({ csv: await exportProductsCsv(ctx.db, input, ctx.config.storeName) })),

  /** How many products a bulk delete would delete, and how many orders keep (made inactive instead). */
  bulkDeletePreview: adminProcedure.input(bulkTarget).query(({ ctx, input }) => bulkDeletePreview(ctx.db, input)),

  /** One action over many products, in one transaction. */
  bulk: adminProcedure.input(bulkInput).mutation(({ ctx, input }) => applyBulkAction(ctx.db, input.target, input.action)),

  setActive: adminProcedure.input(productSetActiveInput).mutation(async ({ ctx, input }) => {
    if (input.isActive && !(await hasVariantOnOffer(ctx.db, input.id))) {
      assertFound(await ctx.db.selectFrom('products').select('id').where('id', '=', input.id).executeTakeFirst(), 'Product');
      throw new TRPCError({ code: 'PRECONDITION_FAILED', message: NOTHING_ON_OFFER });
    }
    return updateById(ctx.db, 'products', input.id, { is_active: input.isActive }, ['id', 'is_active'], 'Product');
  }),

  /**
   * Order lines keep their copied name, image and price; their product link becomes empty (ON
   * DELETE SET NULL). Refused while lines of orders not cancelled are still to print: the print
   * shop finds their SKU and artwork through the product.
   */
  delete: adminProcedure.input(productIdInput).mutation(({ ctx, input }) =>
    ctx.db.transaction().execute(async (trx) => {
      // Locked first: an order placed meanwhile (its line's foreign key) waits, then is counted.
      const product = assertFound(
        await trx.selectFrom('products').select('name').where('id', '=', input.id).forUpdate().executeTakeFirst(),
        'Product',
      );
      const toPrint = await countRows(
        trx
          .selectFrom('order_items')
          .innerJoin('orders', 'orders.id', 'order_items.order_id')
          .where('order_items.product_id', '=', input.id)
          .where('order_items.print_status', 'in', PRINT_QUEUE_STATUSES)
          .where('orders.status', '!=', 'cancelled')
          // Paid, or still to be: a failed or refunded payment is never printed.
          .where('orders.payment_status', 'in', ['paid', 'pending']),
      );
      if (toPrint > 0) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: productToPrintMessage(product.name, toPrint) });
      return trx.deleteFrom('products').where('id', '=', input.id).returning('id').executeTakeFirstOrThrow();
    }),
  ),
});
