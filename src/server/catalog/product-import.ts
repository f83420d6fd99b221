import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { colourCodeOf, SHIRT_PALETTE, variantCents } from '../../shared/colours';
import { CHEST_POSITIONS, PRODUCT_ART_BUCKET, SIZES, type ChestPosition, type Size, type SizeSurcharges } from '../../shared/constants';
import { centsToAmount, toCents } from '../../shared/money';
import { MAX_COLOURS } from '../../shared/schemas/admin-products';
import {
  MAX_IMPORT_ROWS,
  type ImportCounts,
  type ImportPreview,
  type ImportRowError,
  type ImportSummary,
} from '../../shared/schemas/admin-products-import';
import { isImageUrl } from '../../shared/schemas/urls';
import { SLUG_PATTERN } from '../../shared/slug';
import type { Db } from '../db/database';
import { makeDisplayCopies } from '../display-copies';
import { imageProblem } from '../images';
import { readSizeSurcharges } from '../orders/pricing';
import { saveColours, type ColourToSave } from '../products/colours';
import { storageUrl, type Storage } from '../storage/storage';
import { fetchImageBytes, ImageFetchError, type AddressPolicy } from './image-fetch';

// Products → Import CSV (docs/adr/0034): a file in the export's columns, or Shopify's (older and
// current header names), read in full and checked before anything is stored; rows grouped by
// Handle into products; each product created, updated or left as it is. A product with any row in
// error is left out whole, so no product is ever half imported. Applying writes every valid product
// in one transaction, after fetching the images the file names by URL.

// ---- Reading the file

/** Our column names, each with the names Shopify's older and current exports give it (matched ignoring case). */
const COLUMN_NAMES = {
  handle: ['Handle', 'URL handle'],
  title: ['Title'],
  body: ['Body (HTML)', 'Description'],
  type: ['Type'],
  tags: ['Tags'],
  published: ['Published', 'Published on online store'],
  option1Name: ['Option1 Name'],
  option1Value: ['Option1 Value'],
  option2Name: ['Option2 Name'],
  option2Value: ['Option2 Value'],
  sku: ['Variant SKU', 'SKU'],
  price: ['Variant Price', 'Price'],
  image: ['Image Src', 'Product image URL'],
  status: ['Status'],
  category: ['Category'],
  featured: ['Featured'],
  frontArt: ['Front Art'],
  backArt: ['Back Art'],
  chestPosition: ['Chest Position'],
} as const;
type Field = keyof typeof COLUMN_NAMES;

/** One data row: its number as a spreadsheet shows it, and its cells by our column names (absent: no such column). */
interface Row {
  number: number;
  cells: Partial<Record<Field, string>>;
}

export interface ReadFile {
  rows: Row[];
  /** The file's own name of each column it has. */
  headers: Partial<Record<Field, string>>;
}

export class ImportRefused extends Error {}

/** The whole file checked as CSV: UTF-8, a Handle and a Title column, at most MAX_IMPORT_ROWS rows. */
export async function readProductCsv(bytes: Uint8Array): Promise<ReadFile> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ImportRefused('The file is not UTF-8 text. Save it as "CSV UTF-8" and upload it again.');
  }
  if (text.trim() === '') throw new ImportRefused('The file is empty.');
  if (text.includes('\u0000')) throw new ImportRefused('The file is not a CSV file.');
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new ImportRefused(`The file is not valid CSV${line ? ` (near line ${line})` : ''}: ${(error as Error).message.split(':')[0]}.`);
  }
  const [header = [], ...data] = records;
  const headers: Partial<Record<Field, string>> = {};
  const indexes: Partial<Record<Field, number>> = {};
  for (const field of Object.keys(COLUMN_NAMES) as Field[]) {
    const names = COLUMN_NAMES[field].map((name) => name.toLowerCase());
    const index = header.findIndex((name) => names.includes(name.trim().toLowerCase()));
    if (index >= 0) {
      headers[field] = header[index]!.trim();
      indexes[field] = index;
    }
  }
  const missing = (['handle', 'title'] as const).filter((field) => headers[field] === undefined);
  if (missing.length > 0) {
    throw new ImportRefused(
      `The file has no ${missing.map((field) => COLUMN_NAMES[field].join(' or ')).join(' column and no ')} column in its first row.`,
    );
  }
  if (data.length > MAX_IMPORT_ROWS) {
    throw new ImportRefused(
      `The file has ${data.length.toLocaleString('en-US')} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')}. Split it into smaller files.`,
    );
  }
  const rows = data.map((record, i) => {
    const cells: Partial<Record<Field, string>> = {};
    for (const [field, index] of Object.entries(indexes) as [Field, number][]) cells[field] = unneutralised((record[index] ?? '').trim());
    return { number: i + 2, cells };
  });
  return { rows, headers };
}

/** The export puts a ' before text a spreadsheet would run as a formula; it is not part of the value. */
const unneutralised = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

// ---- Planning: what each product would become

interface ColourPlan {
  name: string;
  hex: string;
  sizes: Size[];
}

export interface ProductState {
  name: string;
  description: string;
  price: string;
  tags: string[];
  is_active: boolean;
  is_featured: boolean;
  chest_position: ChestPosition;
  category_id: string;
  sku_number: string;
  available_sizes: Size[];
  image_url: string | null;
  front_art_url: string | null;
  back_art_url: string | null;
}

type ImageField = 'image_url' | 'front_art_url' | 'back_art_url';
const IMAGE_FIELDS: { field: ImageField; column: Field }[] = [
  { field: 'image_url', column: 'image' },
  { field: 'front_art_url', column: 'frontArt' },
  { field: 'back_art_url', column: 'backArt' },
];

interface ExistingColour {
  id: string;
  name: string;
  hex: string;
  code: string;
  front_blank_url: string | null;
  back_blank_url: string | null;
  sizes: Size[];
}

interface ProductPlan {
  handle: string;
  firstRow: number;
  existing: { id: string; state: ProductState; colours: ExistingColour[] } | null;
  state: ProductState;
  colours: ColourPlan[];
  /** Image fields whose URL is to be fetched, with the file's column name for an error. */
  fetches: { field: ImageField; url: string; column: string }[];
}

export interface ImportPlan {
  create: ProductPlan[];
  update: ProductPlan[];
  unchanged: number;
  errors: ImportRowError[];
  errorRows: number;
}

const SIZE_WORDS: Record<string, Size> = {
  'extra small': 'XS',
  small: 'S',
  medium: 'M',
  large: 'L',
  'extra large': 'XL',
  xxl: '2XL',
  xxxl: '3XL',
  xxxxl: '4XL',
};
const sizeOf = (value: string): Size | undefined => SIZES.find((size) => size === value.toUpperCase()) ?? SIZE_WORDS[value.toLowerCase()];

const PRICE_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;
/** A colour named outside the palette and new to the product: the admin sets its real shade in the form. */
const UNKNOWN_COLOUR_HEX = '#a6a7ab';
const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/** Our plain description from Body (HTML): paragraphs and breaks as line breaks, other tags dropped, entities read. */
export function descriptionFromHtml(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>\s*/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => HTML_ENTITIES[entity]!)
    .trim();
}

const truthy = (value: string) => ['true', 'yes', '1'].includes(value.toLowerCase());
const BOOLEAN_VALUES = ['true', 'false', 'yes', 'no', '1', '0'];

/** The key an image fetched from `url` is stored under: the same URL is the same file, so a re-import finds it. */
const importedKey = (url: string) => `import-${createHash('sha256').update(url).digest('hex').slice(0, 32)}`;
const isImportOf = (stored: string | null, url: string) =>
  stored !== null && stored.startsWith(`${storageUrl(PRODUCT_ART_BUCKET, importedKey(url))}.`);

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((value, i) => value === b[i]);

interface Catalog {
  products: Map<string, NonNullable<ProductPlan['existing']>>;
  skus: Map<string, string>;
  categoriesBySlug: Map<string, string>;
  categoriesByName: Map<string, string>;
  surcharges: SizeSurcharges;
}

async function readCatalog(db: Db, handles: string[]): Promise<Catalog> {
  const [products, colours, variants, skus, categories, surcharges] = await Promise.all([
    handles.length === 0
      ? []
      : db
          .selectFrom('products')
          .select([
            'id',
            'slug',
            'name',
            'description',
            'price',
            'tags',
            'is_active',
            'is_featured',
            'chest_position',
            'category_id',
            'sku_number',
            'available_sizes',
            'image_url',
            'front_art_url',
            'back_art_url',
          ])
          .where('slug', 'in', handles)
          .execute(),
    handles.length === 0
      ? []
      : db
          .selectFrom('product_colours')
          .innerJoin('products', 'products.id', 'product_colours.product_id')
          .select([
            'product_colours.id',
            'product_colours.product_id',
            'product_colours.name',
            'product_colours.hex',
            'product_colours.code',
            'product_colours.front_blank_url',
            'product_colours.back_blank_url',
          ])
          .where('products.slug', 'in', handles)
          .orderBy('product_colours.sort_order')
          .execute(),
    handles.length === 0
      ? []
      : db
          .selectFrom('product_variants')
          .innerJoin('products', 'products.id', 'product_variants.product_id')
          .select(['product_variants.colour_id', 'product_variants.size'])
          .where('products.slug', 'in', handles)
          .where('product_variants.is_enabled', '=', true)
          .execute(),
    db.selectFrom('products').select(['sku_number', 'slug']).execute(),
    db.selectFrom('categories').select(['id', 'slug', 'name']).execute(),
    readSizeSurcharges(db),
  ]);
  const byProduct = new Map<string, ExistingColour[]>();
  for (const { product_id: productId, ...colour } of colours) {
    const sizes = variants.filter((variant) => variant.colour_id === colour.id).map((variant) => variant.size);
    byProduct.set(productId, [...(byProduct.get(productId) ?? []), { ...colour, sizes }]);
  }
  return {
    products: new Map(
      products.map(({ id, slug, ...state }) => [
        slug,
        {
          id,
          state: { ...state, price: Number(state.price).toFixed(2) },
          colours: (byProduct.get(id) ?? []).map((colour) => ({
            ...colour,
            // Only the sizes the product offers count: a colour's variant in a size it dropped is not on offer.
            sizes: SIZES.filter((size) => colour.sizes.includes(size) && state.available_sizes.includes(size)),
          })),
        },
      ]),
    ),
    skus: new Map(skus.map((row) => [row.sku_number.toLowerCase(), row.slug])),
    categoriesBySlug: new Map(categories.map((row) => [row.slug, row.id])),
    categoriesByName: new Map(categories.map((row) => [row.name.toLowerCase(), row.id])),
    surcharges,
  };
}

/** One Handle's rows as a product, or the errors that keep it out. */
function planProduct(handle: string, rows: Row[], file: ReadFile, catalog: Catalog, errors: ImportRowError[]): ProductPlan | null {
  const before = errors.length;
  const first = rows[0]!;
  const column = (field: Field) => file.headers[field] ?? COLUMN_NAMES[field][0];
  const fail = (row: Row, field: Field, message: string) => errors.push({ row: row.number, column: column(field), message });
  const has = (field: Field) => file.headers[field] !== undefined;
  const cell = (field: Field) => first.cells[field] ?? '';
  const existing = catalog.products.get(handle) ?? null;

  if (!SLUG_PATTERN.test(handle) || handle.length > 200) {
    for (const row of rows) fail(row, 'handle', `"${handle}" is not a handle: use lower-case letters, digits and single dashes`);
    return null;
  }

  const name = cell('title');
  if (name === '' && !existing) fail(first, 'title', 'the first row of a new product needs its title');
  if (name.length > 200) fail(first, 'title', 'a title has at most 200 characters');

  const description = has('body') ? descriptionFromHtml(cell('body')) : '';
  if (description === '' && !existing) fail(first, 'body', 'a new product needs a description');
  if (description.length > 5000) fail(first, 'body', 'a description has at most 5,000 characters');

  let categoryId = existing?.state.category_id;
  if (cell('category') !== '') {
    categoryId = catalog.categoriesBySlug.get(cell('category'));
    if (!categoryId) fail(first, 'category', `there is no category "${cell('category')}"; add it under Categories first`);
  } else if (cell('type') !== '') {
    categoryId = catalog.categoriesByName.get(cell('type').toLowerCase());
    if (!categoryId)
      fail(first, 'type', `there is no category named "${cell('type')}"; add it under Categories first, or give a Category column`);
  } else if (!categoryId) {
    fail(first, has('category') ? 'category' : 'type', 'a new product needs a category (the Category slug or the Type name)');
  }

  const tags = cell('tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag, i, all) => tag !== '' && all.indexOf(tag) === i);
  if (tags.some((tag) => tag.length > 50)) fail(first, 'tags', 'a tag has at most 50 characters');
  if (tags.length > 50) fail(first, 'tags', 'a product has at most 50 tags');

  let isActive = existing?.state.is_active ?? true;
  if (cell('status') !== '') {
    const status = cell('status').toLowerCase();
    if (!['active', 'draft', 'archived'].includes(status))
      fail(first, 'status', `"${cell('status')}" is not a status (active, draft or archived)`);
    isActive = status === 'active';
  } else if (cell('published') !== '') {
    if (!BOOLEAN_VALUES.includes(cell('published').toLowerCase())) fail(first, 'published', `"${cell('published')}" is not TRUE or FALSE`);
    isActive = truthy(cell('published'));
  }

  let isFeatured = existing?.state.is_featured ?? false;
  if (cell('featured') !== '') {
    if (!BOOLEAN_VALUES.includes(cell('featured').toLowerCase())) fail(first, 'featured', `"${cell('featured')}" is not TRUE or FALSE`);
    isFeatured = truthy(cell('featured'));
  }

  let chestPosition = existing?.state.chest_position ?? 'full_chest';
  if (cell('chestPosition') !== '') {
    const value = CHEST_POSITIONS.find((position) => position === cell('chestPosition').toLowerCase());
    if (!value) fail(first, 'chestPosition', `"${cell('chestPosition')}" is not a chest position (left_chest or full_chest)`);
    else chestPosition = value;
  }

  // Variants: the size and the colour from whichever option is named so (Shopify puts either first).
  const optionOf = (row: Row, kind: 'size' | 'colour'): { field: Field; value: string } | null => {
    const names = kind === 'size' ? ['size'] : ['colour', 'color'];
    for (const [nameField, valueField] of [
      ['option1Name', 'option1Value'],
      ['option2Name', 'option2Value'],
    ] as const) {
      const optionName = (row.cells[nameField] || first.cells[nameField] || '').toLowerCase();
      if (names.includes(optionName)) return { field: valueField, value: row.cells[valueField] ?? '' };
    }
    return null;
  };
  const variantRows = rows.filter((row) => row === first || row.cells.option1Value || row.cells.option2Value || row.cells.price);
  const colours: ColourPlan[] = [];
  const seen = new Set<string>();
  let baseCents: number | null = null;
  for (const row of variantRows) {
    const sizeOption = optionOf(row, 'size');
    const size = sizeOption ? sizeOf(sizeOption.value) : undefined;
    if (!sizeOption) fail(row, 'option1Name', 'name an option "Size" (Option1 or Option2): every shirt comes in sizes');
    else if (!size) fail(row, sizeOption.field, `"${sizeOption.value}" is not a size (${SIZES.join(', ')})`);
    const colourName = optionOf(row, 'colour')?.value || 'White';
    if (colourName.length > 40) fail(row, optionOf(row, 'colour')!.field, 'a colour name has at most 40 characters');

    const priceText = row.cells.price ?? '';
    if (!PRICE_PATTERN.test(priceText.replace(/^\$/, ''))) {
      fail(row, 'price', priceText === '' ? 'a variant needs its price' : `"${priceText}" is not a price`);
    } else if (size) {
      const cents = toCents(priceText.replace(/^\$/, ''));
      const surcharge = toCents(catalog.surcharges[size] ?? '0');
      if (baseCents === null) baseCents = cents - surcharge;
      else if (cents - surcharge !== baseCents) {
        const expected = centsToAmount(variantCents(centsToAmount(baseCents), size, catalog.surcharges));
        fail(
          row,
          'price',
          `"${priceText}" does not fit: sizes differ in price only by the size surcharges in Settings, so with this product's other rows size ${size} costs ${expected}`,
        );
      }
      if (cents - surcharge < 0) fail(row, 'price', `"${priceText}" is less than the ${size} surcharge`);
    }
    if (!size) continue;
    const key = `${colourName.toLowerCase()}|${size}`;
    if (seen.has(key))
      fail(row, optionOf(row, 'colour')?.field ?? sizeOption!.field, `${colourName} in ${size} is on an earlier row already`);
    seen.add(key);
    const colour = colours.find((entry) => entry.name.toLowerCase() === colourName.toLowerCase());
    if (colour) colour.sizes.push(size);
    else {
      const known =
        existing?.colours.find((entry) => entry.name.toLowerCase() === colourName.toLowerCase())?.hex ??
        SHIRT_PALETTE.find((entry) => entry.name.toLowerCase() === colourName.toLowerCase())?.hex;
      colours.push({ name: colourName, hex: known ?? UNKNOWN_COLOUR_HEX, sizes: [size] });
    }
  }
  if (colours.length > MAX_COLOURS)
    fail(first, optionOf(first, 'colour')?.field ?? 'option2Value', `a product has at most ${MAX_COLOURS} colours`);
  for (const colour of colours) colour.sizes = SIZES.filter((size) => colour.sizes.includes(size));
  const availableSizes = SIZES.filter((size) => colours.some((colour) => colour.sizes.includes(size)));

  // The product's SKU: the first variant's without its colour's code and size (as the export writes
  // them: MOTO-1-WHT-S), else the handle's in capitals.
  const firstSku = cell('sku');
  // A file without colours (a Shopify product in sizes only) names its variants by size alone: MOTO-1-S.
  const firstColour = optionOf(first, 'colour')?.value;
  const firstCode =
    firstColour === undefined
      ? null
      : (existing?.colours.find((colour) => colour.name.toLowerCase() === firstColour.toLowerCase())?.code ?? colourCodeOf(firstColour));
  const variantSuffix = `${firstCode === null ? '' : `-${firstCode}`}-${sizeOf(optionOf(first, 'size')?.value ?? '') ?? ''}`;
  const skuNumber =
    firstSku === ''
      ? (existing?.state.sku_number ?? handle.toUpperCase())
      : firstSku.endsWith(variantSuffix) && firstSku.length > variantSuffix.length
        ? firstSku.slice(0, -variantSuffix.length)
        : firstSku;
  if (skuNumber.length > 64) fail(first, 'sku', 'a SKU has at most 64 characters');
  const skuOwner = catalog.skus.get(skuNumber.toLowerCase());
  if (skuOwner !== undefined && skuOwner !== handle) fail(first, 'sku', `SKU "${skuNumber}" belongs to product "${skuOwner}"`);

  // Images: our own stored files as they are; http(s) addresses fetched when applying, unless already imported.
  const images: Pick<ProductState, ImageField> = {
    image_url: existing?.state.image_url ?? null,
    front_art_url: existing?.state.front_art_url ?? null,
    back_art_url: existing?.state.back_art_url ?? null,
  };
  const fetches: ProductPlan['fetches'] = [];
  let unreadableImage = false;
  for (const { field, column: imageColumn } of IMAGE_FIELDS) {
    if (!has(imageColumn)) continue;
    const value = cell(imageColumn);
    if (value === '') images[field] = null;
    else if (!isImageUrl(value)) {
      fail(first, imageColumn, `"${value}" is not an http(s) address or one of the store's own images`);
      unreadableImage = true;
    } else if (value.startsWith('/') || value === existing?.state[field] || isImportOf(existing?.state[field] ?? null, value)) {
      images[field] = value.startsWith('/') || value === existing?.state[field] ? value : existing!.state[field];
    } else fetches.push({ field, url: value, column: column(imageColumn) });
  }
  // A Shopify file has no artwork columns: the product's picture stands for its design until the admin uploads art.
  const artColumns = has('frontArt') || has('backArt');
  if (!artColumns && !existing && images.image_url === null) {
    const pictureFetch = fetches.find((entry) => entry.field === 'image_url');
    if (pictureFetch) fetches.push({ ...pictureFetch, field: 'front_art_url' });
    else if (!has('image')) fail(first, 'frontArt', 'a new product needs artwork: give Front Art, Back Art or Image Src');
  } else if (!artColumns && !existing) images.front_art_url = images.image_url;
  const artComing = fetches.some((entry) => entry.field !== 'image_url');
  if (
    images.front_art_url === null &&
    images.back_art_url === null &&
    !artComing &&
    !unreadableImage &&
    (artColumns || existing || images.image_url === null)
  ) {
    fail(first, has('frontArt') ? 'frontArt' : 'image', 'a product needs artwork for the front or the back');
  }

  if (errors.length > before) return null;
  const state: ProductState = {
    name: name || existing!.state.name,
    description: description || existing!.state.description,
    price: centsToAmount(baseCents ?? 0),
    tags: has('tags') ? tags : (existing?.state.tags ?? []),
    is_active: isActive,
    is_featured: isFeatured,
    chest_position: chestPosition,
    category_id: categoryId!,
    sku_number: skuNumber,
    available_sizes: availableSizes,
    ...images,
  };
  return { handle, firstRow: first.number, existing, state, colours, fetches };
}

function isUnchanged(plan: ProductPlan): boolean {
  const { existing } = plan;
  if (!existing || plan.fetches.length > 0) return false;
  const same = (Object.keys(plan.state) as (keyof ProductState)[]).every((key) => {
    const [a, b] = [plan.state[key], existing.state[key]];
    return Array.isArray(a) && Array.isArray(b) ? sameList(a, b) : a === b;
  });
  // Colours the file leaves out are kept, switched off: unchanged when they are off already.
  const named = plan.colours.map((colour) => colour.name.toLowerCase());
  const offered = existing.colours.filter((colour) => colour.sizes.length > 0);
  return (
    same &&
    existing.colours.filter((colour) => !named.includes(colour.name.toLowerCase())).every((colour) => colour.sizes.length === 0) &&
    sameList(
      offered.map((colour) => `${colour.name}|${colour.sizes.join(',')}`),
      plan.colours.map((colour) => `${colour.name}|${colour.sizes.join(',')}`),
    )
  );
}

/** The whole file checked against the catalog: what it would create and update, and every row error. */
export async function planImport(db: Db, file: ReadFile): Promise<ImportPlan> {
  const groups = new Map<string, Row[]>();
  const errors: ImportRowError[] = [];
  for (const row of file.rows) {
    const handle = row.cells.handle ?? '';
    if (handle === '') {
      errors.push({ row: row.number, column: file.headers.handle!, message: 'every row needs the Handle of its product' });
      continue;
    }
    groups.set(handle, [...(groups.get(handle) ?? []), row]);
  }
  const catalog = await readCatalog(
    db,
    [...groups.keys()].filter((handle) => SLUG_PATTERN.test(handle)),
  );
  const plan: ImportPlan = { create: [], update: [], unchanged: 0, errors, errorRows: 0 };
  const skusInFile = new Map<string, string>();
  for (const [handle, rows] of groups) {
    const product = planProduct(handle, rows, file, catalog, errors);
    if (!product) continue;
    const skuKey = product.state.sku_number.toLowerCase();
    const other = skusInFile.get(skuKey);
    if (other !== undefined) {
      errors.push({
        row: product.firstRow,
        column: file.headers.sku ?? 'Variant SKU',
        message: `SKU "${product.state.sku_number}" is also the SKU of "${other}" in this file`,
      });
      continue;
    }
    skusInFile.set(skuKey, handle);
    if (!product.existing) plan.create.push(product);
    else if (isUnchanged(product)) plan.unchanged += 1;
    else plan.update.push(product);
  }
  errors.sort((a, b) => a.row - b.row);
  plan.errorRows = new Set(errors.map((error) => error.row)).size;
  return plan;
}

export const countsOf = (plan: ImportPlan): ImportCounts => ({
  create: plan.create.length,
  update: plan.update.length,
  unchanged: plan.unchanged,
  errorRows: plan.errorRows,
});

export const previewOf = (plan: ImportPlan): ImportPreview => ({ counts: countsOf(plan), errors: plan.errors });

// ---- Applying

const ACCEPTED_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Fetches an image and stores it under the key its URL gives, with the upload's rules and display copies. */
async function importImage(db: Db, storage: Storage, url: string, addresses: AddressPolicy | undefined): Promise<string> {
  const bytes = await fetchImageBytes(url, addresses);
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  const extension = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
  if (!detected || !extension) throw new ImageFetchError(`"${url}" is not a PNG, JPEG or WebP image`);
  const problem = await imageProblem(bytes);
  if (problem) throw new ImageFetchError(`"${url}" is ${problem === 'too-many-pixels' ? 'too large an image' : 'a damaged image'}`);
  const stored = await storage.put(PRODUCT_ART_BUCKET, `${importedKey(url)}.${extension}`, bytes, detected.mime);
  await makeDisplayCopies(db, storage, stored.url);
  return stored.url;
}

export interface ApplyOptions {
  storage: Storage;
  /** Where the image fetcher may connect: public addresses only unless a test says otherwise. */
  imageAddresses?: AddressPolicy | undefined;
  onProgress?: (done: number, total: number) => void;
}

/** Fetches the file's new images, then writes every product that has all it needs, in one transaction. */
export async function applyImport(db: Db, plan: ImportPlan, options: ApplyOptions): Promise<ImportSummary['summary']> {
  const products = [...plan.create, ...plan.update];
  const fetches = new Map<string, Promise<string>>();
  const total = products.reduce((sum, product) => sum + product.fetches.length, 0) + products.length;
  let done = 0;
  const step = () => options.onProgress?.((done += 1), total);
  const errors = [...plan.errors];
  const ready: ProductPlan[] = [];
  for (const product of products) {
    let failed = false;
    for (const { field, url, column } of product.fetches) {
      try {
        let stored = fetches.get(url);
        if (!stored) fetches.set(url, (stored = importImage(db, options.storage, url, options.imageAddresses)));
        product.state[field] = await stored;
      } catch (error) {
        if (!(error instanceof ImageFetchError)) throw error;
        if (!failed) errors.push({ row: product.firstRow, column, message: error.message });
        failed = true;
      }
      step();
    }
    if (!failed) ready.push(product);
  }

  let created = 0;
  let updated = 0;
  await db.transaction().execute(async (trx) => {
    for (const product of ready) {
      const now = new Date();
      const { state } = product;
      let id: string;
      if (product.existing) {
        id = product.existing.id;
        await trx
          .updateTable('products')
          .set({ ...state, available_sizes: sql`${sql.val(state.available_sizes)}::text[]`, updated_at: now })
          .where('id', '=', id)
          .execute();
        updated += 1;
      } else {
        id = (
          await trx
            .insertInto('products')
            .values({ ...state, slug: product.handle, available_sizes: sql`${sql.val(state.available_sizes)}::text[]` })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        created += 1;
      }
      // A new product's only colour is the White its insert gave it: replaced by the file's colours.
      const kept = product.existing?.colours ?? [];
      const colours: ColourToSave[] = product.colours.map((colour) => {
        const match = kept.find((entry) => entry.name.toLowerCase() === colour.name.toLowerCase());
        return {
          id: match?.id,
          name: colour.name,
          hex: match?.hex ?? colour.hex,
          off_sizes: SIZES.filter((size) => !colour.sizes.includes(size)),
          front_blank_url: match?.front_blank_url ?? null,
          back_blank_url: match?.back_blank_url ?? null,
        };
      });
      // Colours the file leaves out stay, every size switched off: order lines may name their variants.
      for (const colour of kept) {
        if (colours.some((entry) => entry.name.toLowerCase() === colour.name.toLowerCase())) continue;
        colours.push({ ...colour, off_sizes: [...SIZES] });
      }
      await saveColours(trx, id, colours);
      step();
    }
  });
  return { created, updated, unchanged: plan.unchanged, errors: errors.sort((a, b) => a.row - b.row) };
}
