import { sql, type SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import { FEATURED_PRODUCTS_LIMIT, SORT_OPTIONS, type SortOption } from '../../shared/constants';
import { productListInput, productSearchInput, SEARCH_MAX_OFFSET, slugParam } from '../../shared/schemas/catalog';
import { searchWords } from '../../shared/search';
import type { Db } from '../db/database';
import { PRODUCT_PAGE_COLUMNS } from '../db/product-columns';
import type { DB } from '../db/schema';
import { productMatches, productRelevance, productSearchQuery } from '../db/search';
import { displayImages } from '../display-copies';
import { cartProducts, productColours, readSizeSurcharges, sizePrices } from '../orders/pricing';
import { catalogReadProcedure, publicProcedure, router } from '../trpc/init';

// Storefront reads (docs/PRODUCT.md § Reads and writes): only active products in active categories. Each image URL comes
// with its display image (`image`, `front_mockup`, `back_mockup`): the copies pages load instead
// of the print-resolution original, which stays in the URL fields for whoever needs the file.
// Every read but the cart's is cached in the process until the catalog changes (catalog-cache.ts).

/** The colour `c` of the product has a switched-on variant in a size the product offers. */
const colourOnSale = sql<boolean>`exists (
  select 1 from product_variants v
  where v.colour_id = c.id and v.is_enabled and v.size = any(products.available_sizes)
)`;

/** The product comes in the colour with this slug (?colour=black), for sale. */
const inColour = (slug: string) =>
  sql<boolean>`exists (select 1 from product_colours c where c.product_id = products.id and c.slug = ${slug} and ${colourOnSale})`;

const cardColumns = [
  'products.id',
  'products.slug',
  'products.name',
  'products.price',
  'products.image_url',
  'products.created_at',
  'categories.slug as category_slug',
  'categories.name as category_name',
  // "4 colours" on the card: the colours a shopper can buy in some size.
  sql<number>`(select count(*)::int from product_colours c where c.product_id = products.id and ${colourOnSale})`.as('colour_count'),
] as const;

function activeProducts(db: Db) {
  return db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .where('products.is_active', '=', true)
    .where('categories.is_active', '=', true);
}

type ProductQuery<O> = SelectQueryBuilder<DB, 'products' | 'categories', O>;

// Keyset paging: the cursor is the sort, the sort value and the id of the last row shown, so a
// page costs the same at the end of a 10,000-product catalog as at its start. A cursor that does
// not fit the requested sort (hand-made or stale) is ignored: the list starts from the top.
interface Cursor {
  sort: SortOption;
  value: string;
  id: string;
}
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
const cursorValuePattern: Record<SortOption, RegExp> = {
  newest: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/,
  'price-low': /^\d{1,8}\.\d{2}$/,
  'price-high': /^\d{1,8}\.\d{2}$/,
};
const cursorSchema = z.object({ sort: z.enum(SORT_OPTIONS), value: z.string().max(64), id: z.uuid() });
function decodeCursor(raw: string | undefined, sort: SortOption): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    if (!parsed.success || parsed.data.sort !== sort || !cursorValuePattern[sort].test(parsed.data.value)) return undefined;
    return parsed.data;
  } catch {
    return undefined;
  }
}

function applySort<O>(query: ProductQuery<O>, sort: SortOption, after: Cursor | undefined): ProductQuery<O> {
  if (sort === 'newest') {
    if (after) {
      query = query.where(sql<boolean>`(products.created_at, products.id) < (${after.value}::timestamptz, ${after.id}::uuid)`);
    }
    return query.orderBy('products.created_at', 'desc').orderBy('products.id', 'desc');
  }
  const direction = sort === 'price-low' ? 'asc' : 'desc';
  if (after) {
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    query = query.where(sql<boolean>`(products.price, products.id) ${op} (${after.value}::numeric, ${after.id}::uuid)`);
  }
  return query.orderBy('products.price', direction).orderBy('products.id', direction);
}

/** The rows, each with `image`: the display image of its image_url. */
async function withImages<T extends { image_url: string | null }>(db: Db, rows: T[]) {
  const imageOf = await displayImages(
    db,
    rows.map((row) => row.image_url),
  );
  return rows.map((row) => ({ ...row, image: imageOf(row.image_url) }));
}

export const catalogRouter = router({
  categories: catalogReadProcedure.query(({ ctx }) =>
    ctx.catalog.read('categories', async () =>
      withImages(
        ctx.db,
        await ctx.db
          .selectFrom('categories')
          .select(['id', 'slug', 'name', 'description', 'image_url'])
          .where('is_active', '=', true)
          .orderBy('sort_order')
          .execute(),
      ),
    ),
  ),

  categoryBySlug: catalogReadProcedure.input(z.object({ slug: slugParam })).query(({ ctx, input }) =>
    ctx.catalog.read(`category:${input.slug}`, async () => {
      const category = await ctx.db
        .selectFrom('categories')
        .select(['id', 'slug', 'name', 'description', 'image_url'])
        .where('slug', '=', input.slug)
        .where('is_active', '=', true)
        .executeTakeFirst();
      return category ? ((await withImages(ctx.db, [category]))[0] ?? null) : null;
    }),
  ),

  featuredProducts: catalogReadProcedure.query(({ ctx }) =>
    ctx.catalog.read('featured', async () =>
      withImages(
        ctx.db,
        await activeProducts(ctx.db)
          .select(cardColumns)
          .where('products.is_featured', '=', true)
          .orderBy('products.created_at', 'desc')
          .orderBy('products.id', 'desc')
          .limit(FEATURED_PRODUCTS_LIMIT)
          .execute(),
      ),
    ),
  ),

  products: catalogReadProcedure
    .input(productListInput)
    .query(({ ctx, input }) =>
      ctx.catalog.read(`products:${JSON.stringify([input.category, input.colour, input.sort, input.cursor, input.limit])}`, () =>
        productPage(ctx.db, input),
      ),
    ),

  /**
   * The shop's colour filter: every colour an active product is for sale in (within a category if
   * asked), by slug, the most common name and hex for it, the colours most products come in first.
   */
  colours: catalogReadProcedure
    .input(z.object({ category: slugParam.optional() }))
    .query(({ ctx, input }) => ctx.catalog.read(`colours:${input.category ?? ''}`, () => colourFilter(ctx.db, input.category))),

  /**
   * The storefront's search (docs/adr/0032-search-ranking.md): active products found by any word
   * of the query, typos forgiven, best matches first or in a shop sort, within a category if asked.
   * Kept like the shop's pages, under the words searched: a bounded shelf of the catalog cache.
   */
  search: catalogReadProcedure.input(productSearchInput).query(({ ctx, input }) => {
    const words = searchWords(input.q);
    return ctx.catalog.read(`search:${JSON.stringify([words, input.category, input.sort, input.cursor, input.limit])}`, () =>
      searchPage(ctx.db, words, input),
    );
  }),

  /**
   * Current name, price and availability of the products in a cart, so the cart shows today's
   * data instead of what was stored when the line was added. Missing ids were deleted.
   */
  cartProducts: publicProcedure.input(z.object({ ids: z.array(z.uuid()).max(100) })).query(async ({ ctx, input }) => {
    const products = await cartProducts(ctx.db, input.ids);
    const imageOf = await displayImages(
      ctx.db,
      products.flatMap((product) => [product.image_url, ...product.colours.map((colour) => colour.image_url)]),
    );
    return products.map(({ colours, default_mockup_side: _side, ...product }) => ({
      ...product,
      image: imageOf(product.image_url),
      colours: colours.map(({ variants: _variants, front_mockup_url: _front, back_mockup_url: _back, ...colour }) => ({
        ...colour,
        image: imageOf(colour.image_url),
      })),
    }));
  }),

  productBySlug: catalogReadProcedure
    .input(z.object({ slug: slugParam }))
    .query(({ ctx, input }) => ctx.catalog.read(`product:${input.slug}`, () => productBySlug(ctx.db, input.slug))),
});

async function productPage(db: Db, input: z.output<typeof productListInput>) {
  // The cursor takes the sort value as Postgres text: a parsed timestamp would drop microseconds.
  const sortKey = input.sort === 'newest' ? sql<string>`products.created_at::text` : sql<string>`products.price::text`;
  let query = activeProducts(db).select([...cardColumns, sortKey.as('sort_key')]);
  if (input.category) query = query.where('categories.slug', '=', input.category);
  if (input.colour) query = query.where(inColour(input.colour));
  query = applySort(query, input.sort, decodeCursor(input.cursor, input.sort));
  const rows = await query.limit(input.limit + 1).execute();
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last ? encodeCursor({ sort: input.sort, value: last.sort_key, id: last.id }) : null;
  return {
    items: await withImages(
      db,
      page.map(({ sort_key: _sortKey, ...item }) => item),
    ),
    nextCursor,
  };
}

async function colourFilter(db: Db, category: string | undefined) {
  let query = activeProducts(db)
    .innerJoin('product_colours as c', 'c.product_id', 'products.id')
    .where(colourOnSale)
    .select([
      'c.slug',
      sql<string>`mode() within group (order by c.name)`.as('name'),
      sql<string>`mode() within group (order by c.hex)`.as('hex'),
    ])
    .groupBy('c.slug')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('c.slug');
  if (category) query = query.where('categories.slug', '=', category);
  return query.execute();
}

async function searchPage(db: Db, words: string[], input: z.output<typeof productSearchInput>) {
  if (words.length === 0) return { items: [], nextCursor: null };
  const offset = Math.min(Number(/^\d{1,5}$/.test(input.cursor ?? '') ? input.cursor : 0), SEARCH_MAX_OFFSET);
  const search = await productSearchQuery(db, words);
  let query = activeProducts(db).select(cardColumns).where(productMatches(search));
  if (input.category) query = query.where('categories.slug', '=', input.category);
  if (input.sort === 'relevance') {
    const relevance = productRelevance(search);
    query = query
      .orderBy(relevance.nameHits, 'desc')
      .orderBy(relevance.score, 'desc')
      .orderBy('products.created_at', 'desc')
      .orderBy('products.id', 'desc');
  } else {
    query = applySort(query, input.sort, undefined);
  }
  const rows = await query
    .limit(input.limit + 1)
    .offset(offset)
    .execute();
  const page = rows.slice(0, input.limit);
  const next = offset + input.limit;
  return { items: await withImages(db, page), nextCursor: rows.length > input.limit && next <= SEARCH_MAX_OFFSET ? String(next) : null };
}

async function productBySlug(db: Db, slug: string) {
  const product = await activeProducts(db)
    .select([...PRODUCT_PAGE_COLUMNS, 'categories.slug as category_slug', 'categories.name as category_name'])
    .where('products.slug', '=', slug)
    .executeTakeFirst();
  if (!product) return null;
  const [colours, surcharges] = await Promise.all([productColours(db, [product.id]), readSizeSurcharges(db)]);
  const own = colours.get(product.id) ?? [];
  const imageOf = await displayImages(db, [
    product.image_url,
    product.front_mockup_url,
    product.back_mockup_url,
    ...own.flatMap((colour) => [colour.front_mockup_url, colour.back_mockup_url]),
  ]);
  return {
    ...product,
    image: imageOf(product.image_url),
    front_mockup: imageOf(product.front_mockup_url),
    back_mockup: imageOf(product.back_mockup_url),
    /** Each offered size's price: the product's plus the size's surcharge. */
    prices: sizePrices(product.price, product.available_sizes, surcharges),
    colours: own.map((colour) => ({
      id: colour.id,
      name: colour.name,
      slug: colour.slug,
      hex: colour.hex,
      // Only sizes the product offers, in its order.
      sizes: colour.sizes.filter((size) => product.available_sizes.includes(size)),
      // The variants' SKUs are the product's, this code and the size (src/shared/colours.ts).
      code: colour.code,
      front_mockup_url: colour.front_mockup_url,
      back_mockup_url: colour.back_mockup_url,
      front_mockup: imageOf(colour.front_mockup_url),
      back_mockup: imageOf(colour.back_mockup_url),
    })),
  };
}
