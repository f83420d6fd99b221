import type {
  Address,
  BillingInterval,
  ChestPosition,
  ContactStatus,
  MockupSide,
  OrderStatus,
  PaymentStatus,
  PrintStatus,
  Size,
} from '../../shared/constants';
import type { Design, Palette } from './artwork';
import type { CategoryArt } from './images';
import demoStore from './demo-store.json' with { type: 'json' };

// The demo store a first-time user sees: catalog, plans, customers and their history. The data
// itself is in demo-store.json; times are given as days before the moment of seeding.

export interface DemoCategory {
  slug: CategoryArt;
  name: string;
  description: string;
}

export interface DemoProduct {
  sku: string;
  slug: string;
  name: string;
  description: string;
  price: string;
  category: CategoryArt;
  tags: string[];
  /** Omitted: the column default, S to 4XL. */
  sizes?: Size[];
  chestPosition?: ChestPosition;
  defaultSide?: MockupSide;
  featured?: boolean;
  active?: boolean;
  daysAgo: number;
  palette: Palette;
  front: Design;
  back: Design;
}

export interface DemoPlan {
  name: string;
  slug: string;
  description: string;
  price: string;
  interval: BillingInterval;
  categoryLimit: number;
  features: string[];
}

export interface DemoCustomer {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  shipping: Address;
  /** Omitted: same as shipping. */
  billing?: Address;
  confirmed: boolean;
  /** Days since the last sign-in; omitted: never signed in. */
  lastSignInDaysAgo?: number;
  joinedDaysAgo: number;
}

export interface DemoOrderItem {
  sku: string;
  size: Size;
  quantity: number;
  printStatus: PrintStatus;
}

export interface DemoOrder {
  customer: string;
  daysAgo: number;
  status: OrderStatus;
  payment: PaymentStatus;
  tracking?: string;
  notes?: string;
  items: DemoOrderItem[];
}

/** A club member: the plan by slug, their choices, and when they joined; a reason makes it cancelled (today). */
export interface DemoMembership {
  customer: string;
  plan: string;
  size: Size;
  /** Category slugs; empty: every category. */
  categories: CategoryArt[];
  joinedDaysAgo: number;
  cancelReason?: string;
}

export interface DemoContact {
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactStatus;
  daysAgo: number;
}

export interface DemoArtwork {
  name: string;
  description: string | null;
  /** The product whose artwork is reused, and which side. */
  sku: string;
  side: MockupSide;
  tags: string[];
  daysAgo: number;
}

/** A palette of demo-store.json's `palettes`, by name. */
type PaletteName = keyof typeof demoStore.palettes;

/** demo-store.json as the seed reads it: products name their palette. */
interface DemoStoreFile {
  categories: DemoCategory[];
  palettes: Record<PaletteName, Palette>;
  products: (Omit<DemoProduct, 'palette'> & { palette: PaletteName })[];
  plans: DemoPlan[];
  customers: DemoCustomer[];
  orders: DemoOrder[];
  memberships: DemoMembership[];
  contacts: DemoContact[];
  artwork: DemoArtwork[];
}

// A JSON import types its strings as plain `string`; the values are the unions above (the seed test inserts them all).
const store: DemoStoreFile = demoStore as DemoStoreFile;

export const CATEGORIES = store.categories;
export const PRODUCTS: DemoProduct[] = store.products.map((product) => ({ ...product, palette: store.palettes[product.palette] }));
export const PLANS = store.plans;
export const CUSTOMERS = store.customers;
export const ORDERS = store.orders;
export const MEMBERSHIPS = store.memberships;
export const CONTACTS = store.contacts;
export const ARTWORK = store.artwork;
