/** What a shopper sees of a product on its page; the back office reads these and the rest. */
export const PRODUCT_PAGE_COLUMNS = [
  'products.id',
  'products.sku_number',
  'products.slug',
  'products.name',
  'products.description',
  'products.price',
  'products.image_url',
  'products.front_mockup_url',
  'products.back_mockup_url',
  'products.default_mockup_side',
  'products.available_sizes',
  'products.tags',
  'products.chest_position',
] as const;
