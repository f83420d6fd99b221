import type { FulfilmentProviderName } from '../../shared/constants';

// The seam between paid orders and whoever prints and ships them (docs/adr/0035), beside
// PaymentProvider. `self` is the shop's own print queue; a print-on-demand provider (Printful) is
// reached through `remote`. Orders keep their fulfilment state in src/server/fulfilment/jobs.ts and
// notices.ts; a provider only talks to its service.

export interface FulfilmentRecipient {
  name: string;
  address1: string;
  city: string;
  /** ISO 3166-2 subdivision code without the country (CA, ON, NSW), when the country has them. */
  stateCode: string | null;
  /** ISO 3166-1 alpha-2 (US, GB). */
  countryCode: string;
  zip: string;
  email: string | null;
  phone: string | null;
}

export interface FulfilmentItem {
  /** Our order line's id: the provider echoes it back. */
  externalId: string;
  /** The provider's variant of the blank (Printful's catalog_variant_id). */
  catalogVariantId: number;
  quantity: number;
  /** What the buyer paid per unit, as a money string ("25.00"): shown on the packing slip. */
  retailPrice: string;
  name: string;
  /** The print files by side, as addresses the provider can download for 7 days. */
  placements: { placement: 'front' | 'back'; fileUrl: string }[];
}

export interface FulfilmentOrderRequest {
  /** Our order number (TL-1001): the provider finds the order by it, so nothing is made twice. */
  externalId: string;
  recipient: FulfilmentRecipient;
  items: FulfilmentItem[];
  /** The provider's shipping method (Printful: STANDARD, EXPRESS, ...). */
  shippingMethod: string;
  currency: string;
}

/** An order as the provider holds it. */
export interface ProviderOrder {
  id: string;
  externalId: string | null;
  /** The provider's own word (Printful: draft, pending, inprocess, onhold, failed, canceled, partial, fulfilled). */
  status: string;
  /** The provider's cost of the whole order as a money string, or null while it is still being worked out. */
  totalCost: string | null;
  /** Where the admin sees it in the provider's dashboard. */
  dashboardUrl: string;
}

export interface ProviderShipment {
  id: string;
  carrier: string;
  trackingNumber: string;
  trackingUrl: string;
}

/** What a provider's webhook says, whatever the provider calls it. */
export type FulfilmentNotice =
  | { kind: 'shipment_sent'; externalId: string | null; providerOrderId: string; shipment: ProviderShipment }
  | { kind: 'needs_attention'; externalId: string | null; providerOrderId: string; reason: string }
  | { kind: 'cancelled'; externalId: string | null; providerOrderId: string; reason: string }
  | { kind: 'ignored'; type: string };

/** A blank's variant at the provider, for matching ours by colour and size. */
export interface CatalogVariant {
  id: number;
  colour: string;
  size: string;
}

/** A provider whose webhook body or signature does not check out: answered 401, nothing changed. */
export class InvalidFulfilmentNoticeError extends Error {
  override name = 'InvalidFulfilmentNoticeError';
}

/**
 * A print-on-demand provider's API. Every call that changes something at the provider is safe to
 * repeat after `findOrder`: orders are made once per external id.
 */
export interface RemoteFulfilment {
  findOrder(externalId: string): Promise<ProviderOrder | null>;
  createDraft(request: FulfilmentOrderRequest): Promise<ProviderOrder>;
  getOrder(providerOrderId: string): Promise<ProviderOrder>;
  confirm(providerOrderId: string): Promise<ProviderOrder>;
  shipments(providerOrderId: string): Promise<ProviderShipment[]>;
  /** Cancels the order at the provider while that is still possible; 'too_late' once it is in production or shipped. */
  cancel(providerOrderId: string): Promise<'cancelled' | 'too_late'>;
  /** The store the token belongs to (Test connection). */
  storeName(): Promise<string>;
  catalogVariants(catalogProductId: number): Promise<CatalogVariant[]>;
  /** Checks a webhook (raw body and signature header) and says what it means. */
  readNotice(rawBody: Buffer, signature: string | undefined): FulfilmentNotice;
}

export interface FulfilmentProvider {
  readonly name: FulfilmentProviderName;
  /** The provider's API; null when the shop prints and ships itself. */
  readonly remote: RemoteFulfilment | null;
}

export const selfFulfilment: FulfilmentProvider = { name: 'self', remote: null };
