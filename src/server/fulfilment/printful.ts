import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PrintfulConfig } from '../config';
import {
  InvalidFulfilmentNoticeError,
  type CatalogVariant,
  type FulfilmentNotice,
  type FulfilmentOrderRequest,
  type FulfilmentProvider,
  type ProviderOrder,
  type ProviderShipment,
  type RemoteFulfilment,
} from './provider';

// Printful's API v2 through a small typed fetch client of our own (there is no official Node SDK):
// the endpoints the store uses, at most 2 requests a second from this process, 429 answers waited
// out by their Retry-After, and a wait before the next request once X-Ratelimit-Remaining is 0.

/** Printful's answer to a request it refused (4xx, 5xx) or could not be reached for. */
export class PrintfulError extends Error {
  override name = 'PrintfulError';
  constructor(
    message: string,
    /** HTTP status, or null when no answer came (timeout, connection refused). */
    readonly status: number | null,
  ) {
    super(message);
  }
  /** Worth trying again later: no answer, rate limited past the budget, or Printful's own failure. */
  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

export interface PrintfulClientOptions {
  /** Least time between two requests: 500 ms keeps to 2 a second. */
  minIntervalMs?: number;
  /** How long 429 answers are waited out, in all, before a call gives up (retried later by the job). */
  rateLimitBudgetMs?: number;
  /** A request with no answer by then is abandoned (the job looks the order up before making it again). */
  timeoutMs?: number;
}

interface PrintfulOrderBody {
  id: number;
  external_id: string | null;
  status: string;
  costs?: { calculation_status?: string; total?: string | null } | null;
}

interface PrintfulShipmentBody {
  id: number;
  carrier: string;
  tracking_number: string;
  tracking_url: string;
}

const DASHBOARD_ORDER_URL = 'https://www.printful.com/dashboard/default/orders?id=';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createPrintfulFulfilment(config: PrintfulConfig, options: PrintfulClientOptions = {}): FulfilmentProvider {
  const minIntervalMs = options.minIntervalMs ?? 500;
  const rateLimitBudgetMs = options.rateLimitBudgetMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const base = config.apiUrl.replace(/\/+$/, '');
  // Requests take turns: each starts at least minIntervalMs after the one before, or after a reset Printful named.
  let turn: Promise<void> = Promise.resolve();
  let nextStartAt = 0;

  function takeTurn(): Promise<void> {
    const mine = turn.then(async () => {
      const wait = nextStartAt - Date.now();
      if (wait > 0) await sleep(wait);
      nextStartAt = Date.now() + minIntervalMs;
    });
    turn = mine.catch(() => undefined);
    return mine;
  }

  async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T | null> {
    let waitedMs = 0;
    for (;;) {
      await takeTurn();
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${config.apiToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? null : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new PrintfulError(`Printful could not be reached: ${error instanceof Error ? error.message : String(error)}`, null);
      }
      const remaining = res.headers.get('x-ratelimit-remaining');
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      if (remaining === '0' && reset > 0) nextStartAt = Math.max(nextStartAt, Date.now() + reset * 1000);
      if (res.status === 429) {
        const retryAfterMs = Math.max(1, Number(res.headers.get('retry-after')) || 1) * 1000;
        await res.body?.cancel();
        if (waitedMs + retryAfterMs > rateLimitBudgetMs) throw new PrintfulError('Printful is rate limiting the store', 429);
        waitedMs += retryAfterMs;
        nextStartAt = Math.max(nextStartAt, Date.now() + retryAfterMs);
        continue;
      }
      if (res.status === 404 && method === 'GET') {
        await res.body?.cancel();
        return null;
      }
      const text = await res.text();
      if (!res.ok) throw new PrintfulError(`Printful answered ${res.status}: ${errorDetail(text)}`, res.status);
      return text ? (JSON.parse(text) as { data: T }).data : null;
    }
  }

  const found = <T>(value: T | null, what: string): T => {
    if (value === null) throw new PrintfulError(`Printful has no ${what}`, 404);
    return value;
  };

  const remote: RemoteFulfilment = {
    async findOrder(externalId) {
      const order = await request<PrintfulOrderBody>('GET', `/v2/orders/@${encodeURIComponent(externalId)}`);
      return order && providerOrder(order);
    },
    async createDraft(req: FulfilmentOrderRequest) {
      const order = await request<PrintfulOrderBody>('POST', '/v2/orders', {
        external_id: req.externalId,
        shipping: req.shippingMethod,
        recipient: {
          name: req.recipient.name,
          address1: req.recipient.address1,
          city: req.recipient.city,
          state_code: req.recipient.stateCode,
          country_code: req.recipient.countryCode,
          zip: req.recipient.zip,
          email: req.recipient.email,
          phone: req.recipient.phone,
        },
        order_items: req.items.map((item) => ({
          source: 'catalog',
          external_id: item.externalId,
          catalog_variant_id: item.catalogVariantId,
          quantity: item.quantity,
          retail_price: item.retailPrice,
          name: item.name,
          placements: item.placements.map((placement) => ({
            placement: placement.placement,
            technique: 'dtg',
            layers: [{ type: 'file', url: placement.fileUrl }],
          })),
        })),
        retail_costs: { currency: req.currency },
      });
      return providerOrder(found(order, 'order'));
    },
    async getOrder(id) {
      return providerOrder(found(await request<PrintfulOrderBody>('GET', `/v2/orders/${encodeURIComponent(id)}`), `order ${id}`));
    },
    async confirm(id) {
      return providerOrder(found(await request<PrintfulOrderBody>('POST', `/v2/orders/${encodeURIComponent(id)}/confirmation`), 'order'));
    },
    async shipments(id) {
      const list = found(await request<PrintfulShipmentBody[]>('GET', `/v2/orders/${encodeURIComponent(id)}/shipments`), `order ${id}`);
      return list.map(providerShipment);
    },
    async cancel(id) {
      try {
        await request('DELETE', `/v2/orders/${encodeURIComponent(id)}`);
        return 'cancelled';
      } catch (error) {
        // Printful refuses to cancel an order in production or shipped (a conflict, or a bad request).
        if (error instanceof PrintfulError && (error.status === 409 || error.status === 400)) return 'too_late';
        throw error;
      }
    },
    async storeName() {
      const stores = found(await request<{ id: number; name: string }[]>('GET', '/v2/stores'), 'store');
      const store = stores[0];
      if (!store) throw new PrintfulError('The token names no Printful store', 404);
      return store.name;
    },
    async catalogVariants(productId) {
      const variants = found(
        await request<{ id: number; color: string; size: string }[]>('GET', `/v2/catalog-products/${productId}/catalog-variants`),
        `catalog product ${productId}`,
      );
      return variants.map((variant): CatalogVariant => ({ id: variant.id, colour: variant.color, size: variant.size }));
    },
    readNotice(rawBody, signature) {
      if (!signature || !validSignature(config.webhookSecret, rawBody, signature)) {
        throw new InvalidFulfilmentNoticeError('The webhook is not signed with the store’s Printful secret');
      }
      return readPrintfulEvent(rawBody);
    },
  };
  return { name: 'printful', remote };
}

function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string }; detail?: string; title?: string };
    return body.detail ?? body.error?.message ?? body.title ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

function providerOrder(order: PrintfulOrderBody): ProviderOrder {
  const costs = order.costs;
  return {
    id: String(order.id),
    externalId: order.external_id,
    status: order.status,
    totalCost: costs?.calculation_status === 'done' && costs.total ? costs.total : null,
    dashboardUrl: `${DASHBOARD_ORDER_URL}${order.id}`,
  };
}

const providerShipment = (shipment: PrintfulShipmentBody): ProviderShipment => ({
  id: String(shipment.id),
  carrier: shipment.carrier,
  trackingNumber: shipment.tracking_number,
  trackingUrl: shipment.tracking_url,
});

/** Printful's x-pf-webhook-signature: the hex HMAC-SHA256 of the raw body, compared in constant time. */
export function printfulSignature(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

function validSignature(secret: string, rawBody: Buffer, signature: string): boolean {
  const expected = Buffer.from(printfulSignature(secret, rawBody), 'hex');
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface PrintfulEvent {
  type?: unknown;
  data?: { order?: { id?: unknown; external_id?: unknown }; shipment?: PrintfulShipmentBody; reason?: unknown };
}

function readPrintfulEvent(rawBody: Buffer): FulfilmentNotice {
  let event: PrintfulEvent;
  try {
    event = JSON.parse(rawBody.toString('utf8')) as PrintfulEvent;
  } catch {
    throw new InvalidFulfilmentNoticeError('The webhook body is not JSON');
  }
  const type = typeof event.type === 'string' ? event.type : '';
  const order = event.data?.order;
  if (!order || (typeof order.id !== 'number' && typeof order.id !== 'string')) return { kind: 'ignored', type };
  const providerOrderId = String(order.id);
  const externalId = typeof order.external_id === 'string' ? order.external_id : null;
  const reason = typeof event.data?.reason === 'string' && event.data.reason.trim() ? event.data.reason.trim() : 'No reason given';
  switch (type) {
    case 'shipment_sent': {
      const shipment = event.data?.shipment;
      if (!shipment || typeof shipment.tracking_number !== 'string') return { kind: 'ignored', type };
      return { kind: 'shipment_sent', externalId, providerOrderId, shipment: providerShipment(shipment) };
    }
    case 'order_failed':
    case 'order_put_hold':
      return { kind: 'needs_attention', externalId, providerOrderId, reason };
    case 'order_canceled':
      return { kind: 'cancelled', externalId, providerOrderId, reason };
    default:
      return { kind: 'ignored', type };
  }
}
