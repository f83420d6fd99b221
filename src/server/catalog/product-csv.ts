import type { Db } from '../db/database';
import { adminProductsMatching, type AdminProductFilters } from '../db/search';

// The products as Shopify's product CSV (ADR 0034): one row per variant, the product's own
// fields on the first row of its Handle, then our columns. Sizes are the only option today, so
// Option2 (Colour) stays empty; a Shopify file's colours are read as nothing but a name.

export const PRODUCT_CSV_COLUMNS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Variant SKU',
  'Variant Price',
  'Image Src',
  'Status',
  'Category',
  'Featured',
  'Front Art',
  'Back Art',
  'Chest Position',
] as const;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Our plain-text description as HTML that reads the same: escaped, its line breaks kept. */
export const descriptionAsHtml = (text: string) => text.replace(/[&<>"]/g, (char) => HTML_ESCAPES[char]!);

/**
 * Spreadsheets run a cell starting with =, +, - or @ as a formula (tab or carriage return can
 * hide one); a leading single quote makes it plain text, and the import takes it off again.
 */
export const neutraliseFormula = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const yesNo = (value: boolean) => (value ? 'TRUE' : 'FALSE');

/** Every product, or those the list's filters show, as CSV text (header first). */
export async function exportProductsCsv(db: Db, filters: AdminProductFilters, vendor: string) {
  let query = db
    .selectFrom('products')
    .innerJoin('categories', 'categories.id', 'products.category_id')
    .select([
      'products.slug',
      'products.name',
      'products.description',
      'products.tags',
      'products.is_active',
      'products.available_sizes',
      'products.sku_number',
      'products.price',
      'products.image_url',
      'products.is_featured',
      'products.front_art_url',
      'products.back_art_url',
      'products.chest_position',
      'categories.name as category_name',
      'categories.slug as category_slug',
    ]);
  for (const condition of (await adminProductsMatching(db, filters)).conditions) query = query.where(condition);
  const products = await query.orderBy('products.slug').execute();

  const rows: string[][] = [];
  for (const product of products) {
    product.available_sizes.forEach((size, i) => {
      const variant = ['Size', size, '', '', `${product.sku_number}-${size}`, product.price];
      if (i > 0) {
        rows.push([product.slug, '', '', '', '', '', '', ...variant, '', '', '', '', '', '', '']);
        return;
      }
      rows.push([
        product.slug,
        product.name,
        descriptionAsHtml(product.description),
        vendor,
        product.category_name,
        product.tags.join(', '),
        yesNo(product.is_active),
        ...variant,
        product.image_url ?? '',
        product.is_active ? 'active' : 'draft',
        product.category_slug,
        yesNo(product.is_featured),
        product.front_art_url ?? '',
        product.back_art_url ?? '',
        product.chest_position,
      ]);
    });
  }
  const { stringify } = await import('csv-stringify/sync');
  return stringify([[...PRODUCT_CSV_COLUMNS], ...rows.map((row) => row.map(neutraliseFormula))]);
}
