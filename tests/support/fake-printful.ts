import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { printfulSignature } from '../../src/server/fulfilment/printful';

// A local stand-in for the part of Printful's API v2 the store calls, started by a test on
// 127.0.0.1 and shaped like Printful's documentation: answers wrapped in `data`, errors as problem
// details (title, detail, status), orders addressable by id or by `@external_id`, an external id
// used at most once, costs "calculating" for a while after a draft is made, a confirmation refused
// until they are known, 429 with Retry-After and X-Ratelimit-* headers, shipments per package, and
// webhook bodies signed as Printful signs them (x-pf-webhook-signature).

export interface FakePrintfulOrder {
  id: number;
  external_id: string | null;
  status: 'draft' | 'pending' | 'inprocess' | 'fulfilled' | 'canceled' | 'failed' | 'onhold';
  shipping: string;
  recipient: Record<string, unknown>;
  order_items: {
    catalog_variant_id: number;
    quantity: number;
    retail_price: string;
    name: string;
    placements: { placement: string; layers: { type: string; url: string }[] }[];
  }[];
  /** GETs of the draft still to answer with costs "calculating". */
  calculatingFor: number;
  total: string;
  shipments: { id: number; carrier: string; tracking_number: string; tracking_url: string }[];
}

export interface RecordedPrintfulRequest {
  method: string;
  path: string;
  at: number;
  body: unknown;
}

/** The blank every test maps to: a Bella+Canvas 3001 in White and Black, S to 2XL. */
export const FAKE_CATALOG_PRODUCT_ID = 71;
export const FAKE_CATALOG_VARIANTS = (['White', 'Black'] as const).flatMap((color, c) =>
  (['S', 'M', 'L', 'XL', '2XL'] as const).map((size, s) => ({ id: 4010 + c * 10 + s, color, size })),
);

export interface FakePrintful {
  url: string;
  token: string;
  webhookSecret: string;
  storeName: string;
  orders: Map<number, FakePrintfulOrder>;
  requests: RecordedPrintfulRequest[];
  /** How many GETs a new draft answers with costs "calculating" (1 unless set). */
  costsCalculatingFor(reads: number): void;
  /** The next `count` requests are refused with 429 and `Retry-After: seconds`. */
  rateLimitNext(count: number, seconds: number): void;
  /** The next order creation makes the order but answers only after `ms` (longer than the store waits). */
  delayNextCreate(ms: number): void;
  /** Packages sent for an order; returns each as a signed shipment_sent webhook. */
  ship(orderId: number, packages: { carrier: string; trackingNumber: string }[]): SignedNotice[];
  /** A signed webhook of `type` about an order (order_failed, order_put_hold, order_canceled, ...). */
  notice(type: string, orderId: number, extra?: Record<string, unknown>): SignedNotice;
  ordersMade(): number;
  close(): Promise<void>;
}

export interface SignedNotice {
  body: string;
  signature: string;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-ratelimit-limit': '120', 'x-ratelimit-remaining': '100', ...headers });
  res.end(JSON.stringify(body));
};
const problem = (res: http.ServerResponse, status: number, detail: string) =>
  json(res, status, { type: 'about:blank', status, title: http.STATUS_CODES[status] ?? 'Error', detail });

export async function startFakePrintful(options: { storeName?: string } = {}): Promise<FakePrintful> {
  const orders = new Map<number, FakePrintfulOrder>();
  const requests: RecordedPrintfulRequest[] = [];
  let nextId = 100_001;
  let nextShipment = 7001;
  let limited = 0;
  let limitedSeconds = 1;
  let createDelayMs = 0;
  let made = 0;
  let calculatingReads = 1;

  const orderBody = (order: FakePrintfulOrder) => {
    const calculating = order.status === 'draft' && order.calculatingFor > 0;
    return {
      id: order.id,
      external_id: order.external_id,
      store_id: 1,
      status: order.status,
      shipping: order.shipping,
      recipient: order.recipient,
      order_items: order.order_items,
      costs: calculating
        ? { calculation_status: 'calculating', currency: 'USD', subtotal: null, shipping: null, tax: null, total: null }
        : { calculation_status: 'done', currency: 'USD', total: order.total },
    };
  };

  const find = (ref: string) => {
    if (ref.startsWith('@')) return [...orders.values()].find((order) => order.external_id === decodeURIComponent(ref.slice(1)));
    return orders.get(Number(ref));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : null;
      requests.push({ method: req.method ?? '', path, at: Date.now(), body });
      if (req.headers.authorization !== `Bearer ${fake.token}`) return problem(res, 401, 'Invalid access token');
      if (limited > 0) {
        limited--;
        return json(
          res,
          429,
          { type: 'about:blank', status: 429, title: 'Too Many Requests', detail: 'Rate limit exceeded' },
          { 'retry-after': String(limitedSeconds), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(limitedSeconds) },
        );
      }
      const orderMatch = /^\/v2\/orders\/([^/]+)(\/confirmation|\/shipments)?$/.exec(path);
      if (req.method === 'GET' && path === '/v2/stores') return json(res, 200, { data: [{ id: 1, name: fake.storeName }] });
      if (req.method === 'GET' && path === `/v2/catalog-products/${FAKE_CATALOG_PRODUCT_ID}/catalog-variants`) {
        return json(res, 200, { data: FAKE_CATALOG_VARIANTS.map((v) => ({ ...v, catalog_product_id: FAKE_CATALOG_PRODUCT_ID })) });
      }
      if (req.method === 'POST' && path === '/v2/orders') return createOrder(res, body as Partial<FakePrintfulOrder>);
      if (orderMatch) {
        const order = find(orderMatch[1]!);
        if (!order) return problem(res, 404, 'Order not found');
        if (req.method === 'GET' && !orderMatch[2]) {
          if (order.status === 'draft' && order.calculatingFor > 0) {
            const answer = orderBody(order);
            order.calculatingFor--;
            return json(res, 200, { data: answer });
          }
          return json(res, 200, { data: orderBody(order) });
        }
        if (req.method === 'POST' && orderMatch[2] === '/confirmation') {
          if (order.status !== 'draft') return problem(res, 409, 'Only draft orders can be confirmed');
          if (order.calculatingFor > 0) return problem(res, 409, 'Order costs are still being calculated');
          order.status = 'pending';
          return json(res, 200, { data: orderBody(order) });
        }
        if (req.method === 'GET' && orderMatch[2] === '/shipments') return json(res, 200, { data: order.shipments });
        if (req.method === 'DELETE' && !orderMatch[2]) {
          if (!['draft', 'pending', 'failed', 'onhold', 'canceled'].includes(order.status)) {
            return problem(res, 409, 'The order is in production and can no longer be canceled');
          }
          order.status = 'canceled';
          return json(res, 200, { data: orderBody(order) });
        }
      }
      return problem(res, 404, 'Not found');
    });
  });

  function createOrder(res: http.ServerResponse, body: Partial<FakePrintfulOrder>) {
    const recipient = body.recipient ?? {};
    if (typeof recipient.country_code !== 'string' || !/^[A-Z]{2}$/.test(recipient.country_code)) {
      return problem(res, 400, 'Recipient country code is invalid');
    }
    if (!Array.isArray(body.order_items) || body.order_items.length === 0) return problem(res, 400, 'Order must have items');
    if (body.external_id && [...orders.values()].some((order) => order.external_id === body.external_id)) {
      return problem(res, 409, `An order with external ID ${body.external_id} already exists`);
    }
    const id = nextId++;
    const units = body.order_items.reduce((sum, item) => sum + item.quantity, 0);
    const order: FakePrintfulOrder = {
      id,
      external_id: body.external_id ?? null,
      status: 'draft',
      shipping: body.shipping ?? 'STANDARD',
      recipient,
      order_items: body.order_items,
      calculatingFor: calculatingReads,
      total: (units * 10.5 + 4.99).toFixed(2),
      shipments: [],
    };
    orders.set(id, order);
    made++;
    const delay = createDelayMs;
    createDelayMs = 0;
    // The first answer is the draft as just made: costs are never known yet.
    const answer = { data: { ...orderBody(order), costs: { calculation_status: 'calculating', total: null } } };
    setTimeout(() => {
      if (!res.destroyed) json(res, 200, answer);
    }, delay);
  }

  const sign = (payload: unknown): SignedNotice => {
    const body = JSON.stringify(payload);
    return { body, signature: printfulSignature(fake.webhookSecret, body) };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakePrintful = {
    url: `http://127.0.0.1:${port}`,
    token: 'pf-test-token',
    webhookSecret: 'pf-test-webhook-secret',
    storeName: options.storeName ?? 'Threadline Printful store',
    orders,
    requests,
    costsCalculatingFor(reads) {
      calculatingReads = reads;
    },
    rateLimitNext(count, seconds) {
      limited = count;
      limitedSeconds = seconds;
    },
    delayNextCreate(ms) {
      createDelayMs = ms;
    },
    ship(orderId, packages) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`No fake Printful order ${orderId}`);
      return packages.map((pkg) => {
        const shipment = {
          id: nextShipment++,
          carrier: pkg.carrier,
          tracking_number: pkg.trackingNumber,
          tracking_url: `https://track.example/${pkg.trackingNumber}`,
        };
        order.shipments.push(shipment);
        order.status = 'fulfilled';
        return sign({
          type: 'shipment_sent',
          occurred_at: new Date().toISOString(),
          retries: 0,
          store_id: 1,
          data: { order: { id: order.id, external_id: order.external_id, status: order.status }, shipment },
        });
      });
    },
    notice(type, orderId, extra = {}) {
      const order = orders.get(orderId);
      return sign({
        type,
        occurred_at: new Date().toISOString(),
        retries: 0,
        store_id: 1,
        data: { order: { id: orderId, external_id: order?.external_id ?? null, status: order?.status ?? 'failed' }, ...extra },
      });
    },
    ordersMade: () => made,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
