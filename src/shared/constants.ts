// Business constants and status sets (docs/PRODUCT.md § States and Limits), shared by client and server.

export const SIZES = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'] as const;
export type Size = (typeof SIZES)[number];
export const DEFAULT_SIZES: readonly Size[] = ['S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'];

export const CHEST_POSITIONS = ['left_chest', 'full_chest'] as const;
export type ChestPosition = (typeof CHEST_POSITIONS)[number];
export const DEFAULT_CHEST_POSITION: ChestPosition = 'full_chest';

export const MOCKUP_SIDES = ['front', 'back'] as const;
export type MockupSide = (typeof MOCKUP_SIDES)[number];

export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['paid', 'pending', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** How the card payment page sends the buyer back: ?payment=done or ?payment=cancelled (src/server/orders/place.ts). */
export const PAYMENT_RETURNS = ['done', 'cancelled'] as const;
export type PaymentReturn = (typeof PAYMENT_RETURNS)[number];

export const PAYMENT_PROVIDERS = ['manual', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** Who prints and ships paid orders: the shop itself (the print queue) or Printful (docs/adr/0035). */
export const FULFILMENT_PROVIDERS = ['self', 'printful'] as const;
export type FulfilmentProviderName = (typeof FULFILMENT_PROVIDERS)[number];

/** Whether a draft at the provider is confirmed for printing at once or after the admin reviews it. */
export const FULFILMENT_MODES = ['automatic', 'review'] as const;
export type FulfilmentMode = (typeof FULFILMENT_MODES)[number];

/** Where a paid order stands at the print-on-demand provider (null: the shop prints it itself). */
export const FULFILMENT_STATES = ['queued', 'draft', 'in_production', 'shipped', 'needs_attention', 'cancelled'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** The timeline's steps at the print-on-demand provider. */
export const FULFILMENT_EVENT_KINDS = [
  'sent_to_printer',
  'confirmed_for_printing',
  'printer_needs_attention',
  'printer_cancelled',
] as const;

/** What an order's timeline records: its payment's steps, every status it was given, its steps at the printer. */
export const ORDER_EVENT_KINDS = ['placed', 'paid', 'payment_failed', 'refunded', ...ORDER_STATUSES, ...FULFILMENT_EVENT_KINDS] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

export const PRINT_STATUSES = ['pending', 'printing', 'ready'] as const;
export type PrintStatus = (typeof PRINT_STATUSES)[number];

export const CONTACT_STATUSES = ['new', 'read', 'resolved'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'permanently_failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const BILLING_INTERVALS = ['monthly', 'quarterly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

// The admin lists' filters: all, or one status. Here rather than beside their input schemas: the
// routes read them from the address, and route definitions load with the store's first page,
// where zod would weigh more than the rest of a schema module.
/** The Orders screen's status filter: all, one order status, or the orders Printful stopped at. */
export const ORDER_FILTERS = ['all', ...ORDER_STATUSES, 'needs_attention'] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];
/** The Email Logs screen's filter buttons: All, Sent, Pending, Failed, Permanent Failures. */
export const EMAIL_FILTERS = ['all', 'sent', 'pending', 'failed', 'permanently_failed'] as const satisfies readonly ('all' | EmailStatus)[];
export type EmailFilter = (typeof EMAIL_FILTERS)[number];
/** The Customers screen's filter buttons: All, Confirmed, Unconfirmed, Not in Customers. */
export const CUSTOMER_FILTERS = ['all', 'confirmed', 'unconfirmed', 'not_in_customers'] as const;
export type CustomerFilter = (typeof CUSTOMER_FILTERS)[number];
/** The contact screen's status dropdown: All Submissions or one status. */
export const CONTACT_FILTERS = ['all', ...CONTACT_STATUSES] as const;
export type ContactFilter = (typeof CONTACT_FILTERS)[number];
/** The Subscribers screen's status filter: all, or one subscription status. */
export const SUBSCRIBER_FILTERS = ['all', ...SUBSCRIPTION_STATUSES] as const;
export type SubscriberFilter = (typeof SUBSCRIBER_FILTERS)[number];

export const SORT_OPTIONS = ['newest', 'price-low', 'price-high'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];
/** A search's results are also sorted by how well they match, first of all. */
export const SEARCH_SORT_OPTIONS = ['relevance', ...SORT_OPTIONS] as const;
export type SearchSortOption = (typeof SEARCH_SORT_OPTIONS)[number];

export interface Address {
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}
export const DEFAULT_COUNTRY = 'USA';

/** Where an order goes: the address and who receives it (older orders may have no name). */
export interface ShippingAddress extends Address {
  name?: string;
  phone?: string;
}
export const emptyAddress = (): Address => ({ street: '', city: '', state: '', zip: '', country: DEFAULT_COUNTRY });

/** What stands for a person who erased their account, on the orders kept for the shop's accounts. */
export const DELETED_CUSTOMER = 'Deleted customer';

/** Placement of artwork on a mockup template, all in percent of the template except rotation (degrees). */
export interface ArtPosition {
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
}
export const DEFAULT_FRONT_ART_POSITION: ArtPosition = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
export const DEFAULT_BACK_ART_POSITION: ArtPosition = { x: 50, y: 30, width: 40, height: 40, rotation: 0 };

export const FEATURED_PRODUCTS_LIMIT = 6;
/** Most of one product and size a cart line (and an order line) holds: a cap the spec leaves open (docs/PRODUCT.md § Limits). */
export const MAX_LINE_QUANTITY = 99;
export const SHOP_PAGE_SIZE = 24;
export const ADD_TO_CART_CONFIRM_MS = 2000;
export const MIN_PASSWORD_LENGTH = 6;
export const RESET_REDIRECT_MS = 3000;
export const CONTACT_SUCCESS_MS = 5000;
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/**
 * Most pixels an uploaded image may have (8000 x 8000): room for print art at 300 DPI, while a
 * small file that declares a huge image (a decompression bomb) is refused before it is decoded.
 */
export const MAX_UPLOAD_PIXELS = 64_000_000;
export const STORAGE_CACHE_SECONDS = 3600;
export const PRODUCT_ART_BUCKET = 'product-art';
export const RECENT_CONTACT_LIMIT = 5;
export const EMAIL_LIST_LIMIT = 100;
export const POPULAR_TAGS_LIMIT = 10;
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
export const EMAIL_CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Fallback shown wherever a product has no image_url. Served from the client's public folder. */
export const FALLBACK_PRODUCT_IMAGE = '/images/fallback-tee.svg';

/** localStorage key of the cart: the store name in lower case, letters and digits only, plus "_cart". */
export const cartStorageKey = (storeName: string) => `${storeName.toLowerCase().replace(/[^a-z0-9]/g, '')}_cart`;

/** Calls the client batches into one request, and the most the server takes in one. */
export const MAX_BATCH_CALLS = 10;

/** Which shirt colours a club member accepts: any, light ones only, or dark ones only. */
export const COLOUR_CHOICES = ['any', 'light', 'dark'] as const;
export type ColourChoice = (typeof COLOUR_CHOICES)[number];
export const COLOUR_CHOICE_LABELS: Record<ColourChoice, string> = { any: 'Any', light: 'Light colours', dark: 'Dark colours' };

/** The store's surcharge per size (Admin → Settings, "Size pricing"), as money strings; a size not named costs nothing extra. */
export type SizeSurcharges = Partial<Record<Size, string>>;
