import { timingSafeEqual } from 'node:crypto';
import type { AnyTRPCRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import type { CatalogCache } from './catalog-cache';
import type { Db } from './db/database';
import type { EventHub } from './events/events';
import type { StoreBackups } from './backup/schedule';
import type { Clock } from './subscriptions/dates';
import { today } from './subscriptions/dates';
import { dueForRenewal } from './subscriptions/renewal';

// GET /metrics in Prometheus's text format (prom-client), for an operator's scraper: what the
// requests do, what piles up (emails, renewals, the print queue), and whether the process hears
// the database's notifications. Off unless METRICS_TOKEN is set, and then only for that bearer
// token (docs/ARCHITECTURE.md § Processes and background work, README "Monitoring").

export interface MetricsSources {
  db: Db;
  catalog: CatalogCache;
  events: EventHub;
  backups: StoreBackups | null;
  clock: Clock;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TRPC_PREFIX = '/trpc/';

export class StoreMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'threadline_http_requests_total',
    help: 'HTTP requests answered, by route pattern (tRPC calls count under their procedure)',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly requestSeconds = new Histogram({
    name: 'threadline_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  private readonly calls = new Counter({
    name: 'threadline_trpc_calls_total',
    help: 'tRPC calls, by procedure and HTTP status (a batch counts once for each of its calls)',
    labelNames: ['procedure', 'status'] as const,
    registers: [this.registry],
  });
  private readonly callSeconds = new Histogram({
    name: 'threadline_trpc_call_duration_seconds',
    help: "Time to answer a tRPC call, by procedure (a batch's time counts for each of its calls; live streams are left out)",
    labelNames: ['procedure'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });
  readonly rateLimitRefusals = new Counter({
    name: 'threadline_rate_limit_refusals_total',
    help: 'Calls refused for going over a rate limit or an email budget, by procedure',
    labelNames: ['procedure'] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'threadline_webhook_deliveries_total',
    help: 'Payment provider notifications, by outcome: accepted, refused (bad signature) or failed (the provider sends it again later)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly figures = {
    emails: new Gauge({
      name: 'threadline_emails',
      help: 'Emails in the queue, by status',
      labelNames: ['status'] as const,
      registers: [this.registry],
    }),
    oldestPendingEmail: new Gauge({
      name: 'threadline_email_oldest_pending_seconds',
      help: 'Age of the oldest email still waiting to be sent (pending or failed for a retry); 0 when none waits',
      registers: [this.registry],
    }),
    renewalsDue: new Gauge({
      name: 'threadline_renewals_due',
      help: 'Memberships the renewal engine has a step for today (a cycle to make, a pause or cancellation to end) not taken yet',
      registers: [this.registry],
    }),
    renewalsLate: new Gauge({
      name: 'threadline_renewals_late',
      help: 'Of those, the ones whose day is before today: the engine should have taken them already',
      registers: [this.registry],
    }),
    webhookBacklog: new Gauge({
      name: 'threadline_webhook_backlog',
      help: "Card memberships past their cycle's day without the provider's paid-invoice notice that makes its order",
      labelNames: ['provider'] as const,
      registers: [this.registry],
    }),
    // Only the print queue ('self') exists today; a fulfilment provider (Printful) adds its own
    // label here, with the backlog of its sending jobs.
    fulfilmentBacklog: new Gauge({
      name: 'threadline_fulfilment_backlog_items',
      help: 'Shirts of paid orders still to print, by who fulfils them (self: the print queue)',
      labelNames: ['provider'] as const,
      registers: [this.registry],
    }),
    oldestUnfulfilled: new Gauge({
      name: 'threadline_fulfilment_oldest_paid_seconds',
      help: 'Time since the oldest paid order with shirts still to print was paid; 0 when none',
      labelNames: ['provider'] as const,
      registers: [this.registry],
    }),
    catalogReads: new Gauge({
      name: 'threadline_catalog_cache_reads',
      help: "Storefront catalog reads since this process started, answered from this process's cache (hit) or loaded (miss)",
      labelNames: ['result'] as const,
      registers: [this.registry],
    }),
    listener: new Gauge({
      name: 'threadline_listener_connected',
      help: 'Whether the connection that LISTENs for live updates and catalog changes is up (1) or reconnecting (0)',
      registers: [this.registry],
    }),
    lastBackup: new Gauge({
      name: 'threadline_backup_last_taken_timestamp_seconds',
      help: 'When the newest backup in DATA_DIR/backups was taken (embedded database only)',
      registers: [this.registry],
    }),
  };
  private readonly procedures: ReadonlyMap<string, 'query' | 'mutation' | 'subscription'>;

  constructor(
    private readonly sources: MetricsSources,
    router: AnyTRPCRouter,
  ) {
    const procedures = router._def.procedures as Record<string, { _def: { type: 'query' | 'mutation' | 'subscription' } }>;
    this.procedures = new Map(Object.entries(procedures).map(([name, procedure]) => [name, procedure._def.type]));
    // Process figures: event-loop lag, memory, CPU, garbage collection.
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts an answered request: under its route pattern, and for tRPC under each procedure it called. */
  observe(req: FastifyRequest, reply: FastifyReply): void {
    const seconds = reply.elapsedTime / 1000;
    const route = req.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    this.requests.inc({ method: req.method, route, status });
    this.requestSeconds.observe({ method: req.method, route }, seconds);
    if (!req.url.startsWith(TRPC_PREFIX)) return;
    for (const procedure of this.proceduresOf(req)) {
      this.calls.inc({ procedure, status });
      if (this.procedures.get(procedure) !== 'subscription') this.callSeconds.observe({ procedure }, seconds);
    }
  }

  /** A procedure's name as a label: any name the router does not have is 'unknown', so labels stay few whatever is asked. */
  procedureLabel(name: string | undefined): string {
    return name !== undefined && this.procedures.has(name) ? name : 'unknown';
  }

  private proceduresOf(req: FastifyRequest): string[] {
    const path = req.url.slice(TRPC_PREFIX.length).split('?')[0] ?? '';
    return path.split(/,|%2C/i).map((name) => this.procedureLabel(name));
  }

  /** Reads the figures of the store as they stand, then writes every metric out. */
  async scrape(): Promise<string> {
    const { db, catalog, events, backups, clock } = this.sources;
    const day = today(clock);
    const [emails, oldestEmail, renewals, cardRenewals, backlog, [latestBackup]] = await Promise.all([
      db
        .selectFrom('email_queue')
        .select(['status', sql<number>`count(*)::int`.as('count')])
        .groupBy('status')
        .execute(),
      db
        .selectFrom('email_queue')
        .select(sql<number>`coalesce(extract(epoch from now() - min(created_at)), 0)::float8`.as('seconds'))
        .where('status', 'in', ['pending', 'failed'])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('subscriptions')
        .select([
          sql<number>`count(*)::int`.as('due'),
          // The day each step fell due: a pause's end, an on-hold cancellation's day, or the cycle's.
          sql<number>`(count(*) filter (where (case status when 'paused' then paused_until when 'past_due' then cancel_at else next_cycle_on end) < ${day}::date))::int`.as(
            'late',
          ),
        ])
        .where((eb) => dueForRenewal(eb, day))
        .executeTakeFirstOrThrow(),
      // Card members' cycles are made by Stripe's paid-invoice notices: one whose day has passed without it waits on the provider.
      db
        .selectFrom('subscriptions')
        .select(sql<number>`count(*)::int`.as('waiting'))
        .where('payment_provider', '=', 'stripe')
        .where('status', '=', 'active')
        .where('skip_next', '=', false)
        .where('next_cycle_on', '<', day)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('order_items')
        .innerJoin('orders', 'orders.id', 'order_items.order_id')
        .select([
          sql<number>`coalesce(sum(order_items.quantity), 0)::int`.as('items'),
          sql<number>`coalesce(extract(epoch from now() - min(orders.paid_at)), 0)::float8`.as('seconds'),
        ])
        .where('order_items.print_status', 'in', ['pending', 'printing'])
        .where('orders.payment_status', '=', 'paid')
        .where('orders.status', '!=', 'cancelled')
        .executeTakeFirstOrThrow(),
      backups ? backups.list() : Promise.resolve([]),
    ]);
    const { figures } = this;
    figures.emails.reset();
    for (const status of ['pending', 'sent', 'failed', 'permanently_failed']) {
      figures.emails.set({ status }, emails.find((row) => row.status === status)?.count ?? 0);
    }
    figures.oldestPendingEmail.set(oldestEmail.seconds);
    figures.renewalsDue.set(renewals.due);
    figures.renewalsLate.set(renewals.late);
    figures.webhookBacklog.set({ provider: 'stripe' }, cardRenewals.waiting);
    figures.fulfilmentBacklog.set({ provider: 'self' }, backlog.items);
    figures.oldestUnfulfilled.set({ provider: 'self' }, backlog.seconds);
    figures.catalogReads.set({ result: 'hit' }, catalog.hits);
    figures.catalogReads.set({ result: 'miss' }, catalog.misses);
    figures.listener.set(events.connected ? 1 : 0);
    if (latestBackup) figures.lastBackup.set(new Date(latestBackup.createdAt).getTime() / 1000);
    return this.registry.metrics();
  }
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** GET /metrics for the bearer of `token`; with no token metrics are off, and the address is no page either. */
export function registerMetricsRoute(app: FastifyInstance, metrics: StoreMetrics, token: string | undefined): void {
  app.get('/metrics', async (req, reply) => {
    if (!token) return reply.code(404).send({ error: 'Not found' });
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer').send({ error: 'A valid METRICS_TOKEN is required' });
    }
    const text = await metrics.scrape();
    return reply.type(metrics.registry.contentType).header('Cache-Control', 'no-store').send(text);
  });
}
