import type { ColumnType, Generated } from 'kysely';
import type {
  Address,
  ArtPosition,
  BillingInterval,
  ChestPosition,
  ColourChoice,
  ContactStatus,
  EmailStatus,
  FulfilmentMode,
  FulfilmentProviderName,
  FulfilmentState,
  MockupSide,
  OrderEventKind,
  OrderStatus,
  PaymentProviderName,
  PaymentStatus,
  PrintStatus,
  ShippingAddress,
  Size,
  SizeSurcharges,
  SubscriptionStatus,
} from '../../shared/constants';

// Table types for Kysely. Timestamps are read as ISO-8601 strings (see database.ts),
// money (numeric) as fixed two-decimal strings, so nothing on the wire is a float or a Date.

type Timestamp = ColumnType<string, string | Date | undefined, string | Date>;
type NullableTimestamp = ColumnType<string | null, string | Date | null | undefined, string | Date | null>;
type CreatedAt = ColumnType<string, string | Date | undefined, never>;
type Money = ColumnType<string, string | number, string | number>;
type Json<T> = ColumnType<T, T | string, T | string>;
type JsonWithDefault<T> = ColumnType<T, T | string | undefined, T | string>;
type TextArray<T extends string = string> = ColumnType<T[], T[] | undefined, T[]>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  email_confirmed_at: NullableTimestamp;
  last_sign_in_at: NullableTimestamp;
  /** When the hour of account emails anyone can ask for began (src/server/auth/account-emails.ts). */
  account_emails_since: NullableTimestamp;
  /** Such emails asked for in that hour. */
  account_emails_sent: Generated<number>;
  /** When the hour of emails the account's own sessions asked for began. */
  own_emails_since: NullableTimestamp;
  /** Such emails asked for in that hour. */
  own_emails_sent: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  secret_hash: Uint8Array;
  user_id: string;
  created_at: CreatedAt;
  last_used_at: Timestamp;
  expires_at: Timestamp;
}

export type AuthTokenPurpose = 'password_reset' | 'email_confirmation';

export interface AuthTokensTable {
  token_hash: string;
  user_id: string;
  purpose: AuthTokenPurpose;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  /** A confirmation link's: SHA-256 of the sign-up secret of the browser it was made for (src/server/auth/cookies.ts). */
  browser_secret_hash: ColumnType<Uint8Array | null, Uint8Array | undefined, never>;
  created_at: CreatedAt;
}

export interface CustomersTable {
  id: string;
  email: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  phone: Generated<string>;
  is_admin: Generated<boolean>;
  shipping_address: JsonWithDefault<Address>;
  billing_address: JsonWithDefault<Address>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface CategoriesTable {
  id: Generated<string>;
  slug: string;
  name: string;
  description: string;
  image_url: string;
  is_active: Generated<boolean>;
  sort_order: number;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProductsTable {
  id: Generated<string>;
  sku_number: string;
  slug: string;
  name: string;
  description: string;
  price: Money;
  image_url: string | null;
  front_art_url: string | null;
  back_art_url: string | null;
  chest_position: Generated<ChestPosition>;
  front_mockup_url: string | null;
  back_mockup_url: string | null;
  default_mockup_side: Generated<MockupSide>;
  available_sizes: TextArray<Size>;
  tags: TextArray;
  is_featured: Generated<boolean>;
  is_active: Generated<boolean>;
  category_id: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** What the storefront's search looks in, kept by a trigger (migration 0021): never written by the app. */
  search_vector: Generated<string>;
  /** The Printful catalog product (the blank) this product is printed on (migration 0025). */
  printful_product_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A colour a product comes in (migration 0020, docs/adr/0029); its mockups are rendered for it. */
export interface ProductColoursTable {
  id: Generated<string>;
  product_id: string;
  name: string;
  /** The colour in the product page's address (?colour=black). */
  slug: string;
  /** '#rrggbb', lower case. */
  hex: string;
  /** Its part of each variant's SKU (BLK in TL-CHR-001-BLK-2XL). */
  code: string;
  sort_order: number;
  /** The admin's own photo of the blank shirt in this colour, used instead of the tinted template. */
  front_blank_url: string | null;
  back_blank_url: string | null;
  front_mockup_url: string | null;
  back_mockup_url: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** One colour in one size: what a cart line and an order line are (migration 0020). */
export interface ProductVariantsTable {
  id: Generated<string>;
  product_id: string;
  colour_id: string;
  size: Size;
  sku: string;
  is_enabled: Generated<boolean>;
  /** The blank's variant at Printful (catalog_variant_id); null: not mapped, and never sent. */
  printful_variant_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SubscriptionPlansTable {
  id: Generated<string>;
  name: string;
  slug: string;
  description: Generated<string>;
  price: Money;
  billing_interval: Generated<BillingInterval>;
  category_limit: Generated<number>;
  is_active: Generated<boolean>;
  features: TextArray;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  stripe_price_amount: string | null;
  stripe_price_interval: BillingInterval | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface OrdersTable {
  id: Generated<string>;
  order_number: Generated<string>;
  /** Null once the customer erased their account: the order stays for the shop's accounts. */
  customer_id: string | null;
  status: Generated<OrderStatus>;
  payment_status: Generated<PaymentStatus>;
  subtotal: Money;
  tax: ColumnType<string, string | number | undefined, string | number>;
  shipping_cost: ColumnType<string, string | number | undefined, string | number>;
  total: Money;
  tracking_number: string | null;
  /** The tracking number the customer was last emailed. */
  tracking_announced: string | null;
  shipping_address: Json<ShippingAddress>;
  notes: string | null;
  payment_provider: Generated<PaymentProviderName>;
  subscription_id: string | null;
  idempotency_key: string | null;
  /** A guest order's address: null on an account's order, and once attached to the account or erased. */
  guest_email: string | null;
  /** The key a guest order's page opens with (docs/adr/0027-guest-checkout.md); null on an account's order. */
  access_key: string | null;
  checkout_session_id: string | null;
  checkout_url: string | null;
  payment_intent_id: string | null;
  paid_at: NullableTimestamp;
  /** Set by a trigger when the order becomes refunded (migration 0023): the day its refund counts. */
  refunded_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** The discount code applied, as the shopper typed it, and what it took off (goods and shipping). */
  discount_code: ColumnType<string | null, string | null | undefined, string | null>;
  discount: ColumnType<string, string | undefined, string>;
  /** Where the order stands at the print-on-demand provider (migration 0025); null while the shop prints it. */
  fulfilment_state: ColumnType<FulfilmentState | null, FulfilmentState | null | undefined, FulfilmentState | null>;
  /** Why it needs attention, in the provider's words or ours. */
  fulfilment_reason: ColumnType<string | null, string | null | undefined, string | null>;
  provider_order_id: ColumnType<string | null, string | null | undefined, string | null>;
  provider_order_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The provider's cost of the order, once it worked it out. */
  fulfilment_cost: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}

/** A package the provider sent, with its tracking (migration 0025). */
export interface OrderShipmentsTable {
  id: Generated<string>;
  order_id: string;
  provider_shipment_id: string;
  carrier: string;
  tracking_number: string;
  tracking_url: string;
  created_at: CreatedAt;
}

/** The sending of one paid order to the provider: claimed with a lease, retried with backoff (migration 0025). */
export interface FulfilmentJobsTable {
  order_id: string;
  step: Generated<'send' | 'confirm'>;
  /** held: waits for the admin (an unmapped variant, a bad address, a review before printing). */
  status: Generated<'pending' | 'done' | 'held'>;
  attempts: Generated<number>;
  run_after: ColumnType<string, string | Date | undefined, string | Date>;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** 'YYYY-MM-DD': a calendar day, with no time and no zone. */
type CalendarDate = ColumnType<string, string, string>;
type NullableDate = ColumnType<string | null, string | null | undefined, string | null>;

export interface SubscriptionsTable {
  id: Generated<string>;
  /** Null once the member erased their account (the membership is cancelled by then). */
  customer_id: string | null;
  plan_id: string;
  /** incomplete: a card join waiting for its Checkout to be paid, not a member yet (and never shown as one). */
  status: Generated<SubscriptionStatus | 'incomplete'>;
  size: Size;
  category_ids: ColumnType<string[], string[] | undefined, string[]>;
  shipping_address: Json<ShippingAddress>;
  payment_provider: Generated<PaymentProviderName>;
  price: Money;
  billing_interval: BillingInterval;
  anchor_day: number;
  next_cycle_on: CalendarDate;
  skip_next: Generated<boolean>;
  /** Which shirt colours the member accepts. */
  colour_choice: Generated<ColourChoice>;
  paused_until: NullableDate;
  cancel_at: NullableDate;
  cancel_reason: string | null;
  cancelled_at: NullableTimestamp;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  checkout_session_id: string | null;
  checkout_url: string | null;
  unpaid_invoice_id: string | null;
  unpaid_invoice_url: string | null;
  unpaid_since: NullableDate;
  unpaid_retries: Generated<number>;
  unpaid_retried_on: NullableDate;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SubscriptionCyclesTable {
  subscription_id: string;
  cycle_start: CalendarDate;
  outcome: 'ordered' | 'skipped';
  order_id: string | null;
  reminders_sent: Generated<number>;
  reminded_on: NullableDate;
  created_at: CreatedAt;
}

export interface OrderEventsTable {
  id: Generated<string>;
  order_id: string;
  kind: OrderEventKind;
  created_at: CreatedAt;
}

export interface PaymentEventsTable {
  provider: PaymentProviderName;
  event_id: string;
  type: string;
  order_id: string | null;
  received_at: CreatedAt;
}

export interface StoreSettingsTable {
  id: Generated<boolean>;
  flat_shipping_rate: Money;
  free_shipping_threshold: ColumnType<string | null, string | number | null, string | number | null>;
  tax_rate_percent: Money;
  payment_instructions: string;
  tracking_url_template: string;
  /** Customers can check out without an account. */
  guest_checkout: Generated<boolean>;
  /** An IANA zone: the store's days in analytics. Changing it rebuilds the sales rollups (migration 0023). */
  time_zone: Generated<string>;
  /** Extra per size, as money strings; a size not named costs nothing extra. */
  size_surcharges: JsonWithDefault<SizeSurcharges>;
  /** Written at start-up from the configuration (Printful when its keys are set): the trigger queueing paid orders reads it. */
  fulfilment_provider: Generated<FulfilmentProviderName>;
  fulfilment_mode: Generated<FulfilmentMode>;
  /** Printful's shipping method for every order (STANDARD unless chosen). */
  fulfilment_shipping: Generated<string>;
  /** Signs the expiring addresses of print files handed to the provider; never leaves the server. */
  file_link_secret: Generated<string>;
  updated_at: Timestamp;
}

export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  product_id: string | null;
  product_name: string;
  product_image: string | null;
  size: Size;
  /** The variant bought (null once it is gone, and on lines of products deleted before colours). */
  variant_id: ColumnType<string | null, string | null | undefined, string | null>;
  variant_sku: ColumnType<string | null, string | null | undefined, string | null>;
  colour_name: ColumnType<string | null, string | null | undefined, string | null>;
  colour_hex: ColumnType<string | null, string | null | undefined, string | null>;
  /** The print files as they were when the order was placed (migration 0025). */
  front_print_url: ColumnType<string | null, string | null | undefined, string | null>;
  back_print_url: ColumnType<string | null, string | null | undefined, string | null>;
  quantity: number;
  unit_price: Money;
  total_price: Money;
  /** What a discount code took off this line (total_price is before it). */
  discount: ColumnType<string, string | undefined, string>;
  print_status: Generated<PrintStatus>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type DiscountKind = 'percent' | 'amount' | 'free_shipping';
export type DiscountTarget = 'order' | 'categories' | 'products';

export interface DiscountCodesTable {
  id: Generated<string>;
  code: string;
  kind: DiscountKind;
  /** Percent (1-100) or cents off; null for free shipping. */
  value: number | null;
  applies_to: Generated<DiscountTarget>;
  category_ids: ColumnType<string[], string[] | undefined, string[]>;
  product_ids: ColumnType<string[], string[] | undefined, string[]>;
  min_subtotal_cents: number | null;
  starts_at: NullableTimestamp;
  ends_at: NullableTimestamp;
  usage_limit: number | null;
  used_count: Generated<number>;
  once_per_customer: Generated<boolean>;
  applies_to_club: Generated<boolean>;
  club_cycles: number | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Every word of the catalog's search (migration 0021), where a misspelt word finds the one meant. */
export interface SearchWordsTable {
  word: string;
}

export interface DiscountUsesTable {
  id: Generated<string>;
  discount_code_id: string;
  order_id: string;
  customer_id: string | null;
  created_at: CreatedAt;
}

export interface ContactSubmissionsTable {
  id: Generated<string>;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: Generated<ContactStatus>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ArtworkLibraryTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  artwork_url: string;
  tags: string[] | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface MockupTemplatesTable {
  id: Generated<string>;
  name: string;
  front_template_url: string;
  back_template_url: string;
  is_default: Generated<boolean>;
  front_art_position: JsonWithDefault<ArtPosition>;
  back_art_position: JsonWithDefault<ArtPosition>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface EmailQueueTable {
  id: Generated<string>;
  to_email: string;
  /** Where replies go, when not to the sender (the store). */
  reply_to: Generated<string | null>;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: Generated<EmailStatus>;
  retry_count: Generated<number>;
  max_retries: Generated<number>;
  next_retry_at: NullableTimestamp;
  last_error: string | null;
  message_id: string | null;
  locked_until: NullableTimestamp;
  sent_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface EmailLogsTable {
  id: Generated<string>;
  email_queue_id: string;
  attempt_number: number;
  status: string;
  response_code: number | null;
  error_message: string | null;
  created_at: CreatedAt;
}

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

/** Display copies of a stored image (migration 0005): each width in AVIF and WebP, named from the original's key. */
export interface ImageVariantsTable {
  image_url: string;
  width: number;
  height: number;
  display_widths: number[];
  created_at: CreatedAt;
}

/** Rate-limit counters the app processes on one PostgreSQL server share (migration 0007). */
export interface RateLimitCountersTable {
  key: string;
  count: number;
  window_ends_at: Timestamp;
}

/** Orders and their money by status and payment status, kept by a trigger on orders (migration 0009); read only. */
export interface OrderStatsTable {
  status: OrderStatus;
  payment_status: PaymentStatus;
  /** bigint: read it cast to int. */
  order_count: ColumnType<string, never, never>;
  total: ColumnType<string, never, never>;
}

type ReadOnly<T> = ColumnType<T, never, never>;

/** Paid orders, their totals and refunds by the store's day, kept by triggers (migration 0023); read only. */
export interface SalesDaysTable {
  day: ReadOnly<string>;
  orders: ReadOnly<number>;
  sales: ReadOnly<string>;
  refunds: ReadOnly<string>;
  /** Discounts of the orders counted in `orders` (migration 0024). */
  discounts: ReadOnly<string>;
}

/** Each customer's paid orders by day, kept by triggers (migration 0023); read only. */
export interface CustomerSalesDaysTable {
  customer_id: ReadOnly<string>;
  day: ReadOnly<string>;
  orders: ReadOnly<number>;
}

/** Units and line revenue by day and product of orders still paid, kept by triggers (migration 0023); read only. */
export interface ProductSalesDaysTable {
  day: ReadOnly<string>;
  product_id: ReadOnly<string>;
  units: ReadOnly<number>;
  revenue: ReadOnly<string>;
}

/** Guest orders placed with one address in the last hour, under a SHA-256 of the lower-cased address. */
export interface GuestEmailBudgetsTable {
  address_hash: string;
  emails_since: Generated<string>;
  emails_sent: Generated<number>;
}

export interface DB {
  app_meta: AppMetaTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  customers: CustomersTable;
  categories: CategoriesTable;
  products: ProductsTable;
  product_colours: ProductColoursTable;
  product_variants: ProductVariantsTable;
  subscription_plans: SubscriptionPlansTable;
  subscriptions: SubscriptionsTable;
  subscription_cycles: SubscriptionCyclesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_shipments: OrderShipmentsTable;
  fulfilment_jobs: FulfilmentJobsTable;
  discount_codes: DiscountCodesTable;
  search_words: SearchWordsTable;
  discount_uses: DiscountUsesTable;
  order_events: OrderEventsTable;
  payment_events: PaymentEventsTable;
  store_settings: StoreSettingsTable;
  contact_submissions: ContactSubmissionsTable;
  artwork_library: ArtworkLibraryTable;
  mockup_templates: MockupTemplatesTable;
  email_queue: EmailQueueTable;
  email_logs: EmailLogsTable;
  image_variants: ImageVariantsTable;
  rate_limit_counters: RateLimitCountersTable;
  order_stats: OrderStatsTable;
  guest_email_budgets: GuestEmailBudgetsTable;
  sales_days: SalesDaysTable;
  customer_sales_days: CustomerSalesDaysTable;
  product_sales_days: ProductSalesDaysTable;
}
