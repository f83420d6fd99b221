import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import { createTRPCClient, unstable_localLink } from '@trpc/client';
import { TRPCError } from '@trpc/server';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { DestinationStream, LogFn, Logger } from 'pino';
import { MAX_BATCH_CALLS } from '../shared/constants';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { BackgroundWork } from './background';
import { ColourRenders } from './mockups/colour-renders';
import { backupsDir, StoreBackups } from './backup/schedule';
import { backupRoutes } from './http/backups';
import { logTransport } from './logging';
import { registerMetricsRoute, StoreMetrics } from './metrics';
import { CatalogCache } from './catalog-cache';
import { rateLimitCounters } from './rate-limits';
import { EventHub } from './events/events';
import { registerClient, type ClientSource } from './http/client';
import { registerHealthRoutes } from './http/health';
import { RenderQueue } from './http/render-queue';
import { registerOriginCheck, sentByAnotherSite } from './http/origin-check';
import { printQueueRoutes } from './http/print-queue';
import { productImportRoutes } from './http/product-import';
import type { AddressPolicy } from './catalog/image-fetch';
import { registerSecurityHeaders, securityHeaders } from './http/security-headers';
import { clientErrorHandler, frameworkErrorHandler } from './http/early-errors';
import { storageRoutes } from './http/storage';
import { registerSeoRoutes } from './http/seo';
import { trpcRoutes } from './http/trpc';
import { uploadRoutes } from './http/uploads';
import { webhookRoutes } from './http/webhooks';
import { createFulfilmentProvider } from './fulfilment';
import type { FulfilmentProvider } from './fulfilment/provider';
import { createPaymentProvider } from './payments';
import type { PaymentProvider } from './payments/provider';
import { createStorage } from './storage/create';
import type { Storage } from './storage/storage';
import { createContextFactory, createPageRenderContext, RATE_LIMITED_ACTIONS, type RateLimitedAction } from './trpc/init';
import { appRouter, type AppRouter } from './trpc/router';
import { systemClock, type Clock } from './subscriptions/dates';

export interface AppDeps {
  database: DatabaseHandle;
  /** Folder of the built client (index.html and assets); omitted, the app serves the API only. */
  clientDir?: string | undefined;
  /** Serve the client from its sources through Vite instead, with hot reload (npm run dev): the project root. */
  devClientRoot?: string | undefined;
  storage?: Storage;
  /** Who takes payments; by default the one the config names (Stripe when its keys are set, else by hand). */
  payments?: PaymentProvider;
  /** Who prints paid orders; by default the one the config names (Printful when its keys are set, else the shop). */
  fulfilment?: FulfilmentProvider;
  /** The subscription calendar's clock; the system's by default. */
  clock?: Clock;
  logger?: boolean;
  /** Where a product import may fetch images from: public addresses only unless a test loosens it. */
  importImageAddresses?: AddressPolicy;
  /** Where log lines go: standard output unless given (a test reading them). */
  logStream?: DestinationStream;
}

const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.';
const CROSS_SITE_REFUSED = 'Cross-site request refused';
const MAX_JSON_BODY_BYTES = 128 * 1024;
/** When a busy store (a 503) asks the client to come back. */
const RETRY_AFTER_SECONDS = 10;

/**
 * A client that goes away before its answer is complete (a closed tab, a load tester's timeout) is
 * the client's doing, not a fault: the "premature close" that @fastify/compress logs as an error,
 * and Fastify as information, goes to debug.
 */
function clientsGoneAtDebug(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const [first, message] = args as unknown[];
  const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  const clientGone =
    (error instanceof Error &&
      ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'premature close')) ||
    message === 'stream closed prematurely';
  if (clientGone && level > this.levels.values.debug!) this.debug(...args);
  else method.apply(this, args);
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const headers = securityHeaders(config);
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(deps.logStream ? { stream: deps.logStream } : { transport: logTransport() }),
            // Request logs name the path only: query strings can carry reset and confirmation tokens.
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
            },
            hooks: { logMethod: clientsGoneAtDebug },
          },
    // A hop count as Fastify itself reads one (its types leave the number form out): the last n hops are proxies.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
    // JSON bodies (tRPC calls) are small; uploads and webhooks set their own limits.
    bodyLimit: MAX_JSON_BODY_BYTES,
    // Requests refused before any hook runs still get the headers and a plain message.
    frameworkErrors: frameworkErrorHandler(headers),
    clientErrorHandler: clientErrorHandler(headers),
  });
  const storage = deps.storage ?? (await createStorage(config));
  app.decorate('storage', storage);

  // An unexpected failure answers with a generic message; its details go to the log only.
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, req, reply) => {
    // A path the static files refuse to look up (a backslash in it, say) names no file: it is
    // answered as any address without one, with the store's 404 page.
    if (error.code === 'FST_STATIC_FORBIDDEN_PATH') return reply.callNotFound();
    // Client errors, and 503 from load shedding (with its Retry-After), keep their status.
    const code = error.statusCode ?? 500;
    const status = (code >= 400 && code < 500) || code === 503 ? code : 500;
    if (status === 500) req.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ error: status === 500 ? 'An unexpected error occurred' : error.message });
  });

  // First, so that every answer carries the headers, even one an early hook sends (503, 403).
  registerSecurityHeaders(app, config, headers);
  await app.register(fastifyCookie);
  // Pages and API answers over 1 KB go out brotli- or gzip-compressed (brotli at a quality fast
  // enough per request); built assets have their copies made at build time. Live streams
  // (text/event-stream) are never compressed: a compressor would hold their events back.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // tRPC's adapter answers with a fetch Response, whose status and headers Fastify applies only
  // after the onSend hooks: the compressor would see neither, and would compress a live stream
  // into silence. Applied here first (instance hooks run before the compressor's route hooks).
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!(payload instanceof Response)) return payload;
    reply.code(payload.status);
    payload.headers.forEach((value, name) => {
      if (name !== 'content-length') reply.header(name, value);
    });
    return payload.body ?? '';
  });
  // A process whose event loop lags answers 503 with Retry-After at once instead of making
  // everyone wait into timeouts (readiness too, so a balancer sends traffic elsewhere).
  if (config.loadShedEventLoopDelayMs > 0) {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: config.loadShedEventLoopDelayMs,
      retryAfter: RETRY_AFTER_SECONDS,
      message: 'The store is busy. Please try again in a few seconds.',
    });
  }
  // Counted where every process sees them: Redis or the database, or memory when embedded.
  const counters = await rateLimitCounters({ redisUrl: config.redisUrl, database: deps.database, log: app.log });
  app.addHook('onClose', () => counters.close());
  await app.register(fastifyRateLimit, { global: false, ...(counters.store ? { store: counters.store } : {}) });
  registerOriginCheck(app, config.publicUrl);

  const limiters = new Map<RateLimitedAction, ReturnType<FastifyInstance['createRateLimit']>>();
  for (const action of RATE_LIMITED_ACTIONS) {
    limiters.set(
      action,
      app.createRateLimit({
        max: config.authRateLimitPerMinute,
        timeWindow: 60_000,
        // One client per IPv4 address, per IPv6 /64 (one machine's own block, which it can rotate
        // through), as the plugin's own key would be.
        keyGenerator: (req: FastifyRequest) => `${action}:${normalizeIP(req.ip)}`,
      }),
    );
  }
  const rateLimit = async (req: FastifyRequest, action: RateLimitedAction) => {
    // Refused before it is counted: otherwise any page could spend its visitors' budgets with
    // images pointing at a limited query (an emailed link's check), and the visitor's own link
    // would then be refused. Our pages never send one; cross-site posts never get this far.
    if (sentByAnotherSite(req)) throw new TRPCError({ code: 'FORBIDDEN', message: CROSS_SITE_REFUSED });
    const result = await limiters.get(action)!(req);
    if (!result.isAllowed && result.isExceeded) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE });
    }
  };

  const payments = deps.payments ?? createPaymentProvider(config);
  const fulfilment = deps.fulfilment ?? createFulfilmentProvider(config);
  // The trigger that queues paid orders for the provider reads this (docs/adr/0035).
  await deps.database.db
    .updateTable('store_settings')
    .set({ fulfilment_provider: fulfilment.name })
    .where('fulfilment_provider', '<>', fulfilment.name)
    .execute();
  const background = new BackgroundWork();
  app.decorate('background', background);
  const events = new EventHub(deps.database);
  await events.start();
  const catalog = new CatalogCache({ maxPages: config.pageCacheEntries });
  catalog.follow(events);
  // The embedded database backs itself up (docs/adr/0024); a server's operator backs that up.
  const backups =
    deps.database.kind === 'pglite'
      ? new StoreBackups({ database: deps.database, storage }, backupsDir(config.dataDir), config.backupKeep)
      : null;
  app.decorate('backups', backups);
  const metrics = new StoreMetrics({ db: deps.database.db, catalog, events, backups, clock: deps.clock ?? systemClock }, appRouter);
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req, reply);
    done();
  });
  // Live streams end as soon as closing starts (an open stream would hold the close), work that
  // can stop does, and work started by requests finishes before the database goes.
  app.addHook('preClose', () => {
    background.stop();
    return events.stop();
  });
  app.addHook('onClose', () => background.settled());

  const services = {
    config,
    db: deps.database.db,
    events,
    catalog,
    storage,
    payments,
    fulfilment,
    clock: deps.clock ?? systemClock,
    background,
    colourRenders: new ColourRenders(),
    backups,
  };
  const createContext = createContextFactory(services, rateLimit);
  await app.register(
    trpcRoutes({
      router: appRouter,
      createContext,
      // The client batches up to this many calls; more in one request is someone else's client.
      maxBatchSize: MAX_BATCH_CALLS,
      catalog,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, procedure }, 'tRPC call failed');
        if (error.code === 'TOO_MANY_REQUESTS') metrics.rateLimitRefusals.inc({ procedure: metrics.procedureLabel(procedure) });
      },
    }),
    { prefix: '/trpc' },
  );

  registerHealthRoutes(app, deps.database.db, storage, events);
  registerMetricsRoute(app, metrics, config.metricsToken);
  registerSeoRoutes(app, deps.database.db, catalog, config.publicUrl);
  await app.register(uploadRoutes, { config, db: deps.database.db });
  await app.register(printQueueRoutes, { config, db: deps.database.db });
  await app.register(productImportRoutes, { config, db: deps.database.db, catalog, imageAddresses: deps.importImageAddresses });
  await app.register(backupRoutes, { config, db: deps.database.db, backups });
  await app.register(webhookRoutes, {
    db: deps.database.db,
    mail: config,
    payments,
    fulfilment,
    clock: deps.clock ?? systemClock,
    deliveries: metrics.webhookDeliveries,
  });

  await app.register(storageRoutes, { config, db: deps.database.db, storage });

  const client: ClientSource | undefined = deps.devClientRoot
    ? { kind: 'dev', root: deps.devClientRoot }
    : deps.clientDir
      ? { kind: 'built', dir: deps.clientDir }
      : undefined;
  await registerClient(
    app,
    client,
    { storeName: config.storeName, storeEmail: config.storeEmail },
    {
      origin: config.publicUrl,
      trpcClientFor: (req) =>
        createTRPCClient<AppRouter>({
          links: [
            unstable_localLink({
              router: appRouter,
              createContext: () => Promise.resolve(createPageRenderContext(services, req, rateLimit)),
            }),
          ],
        }),
      catalog,
      renders: new RenderQueue({ concurrency: config.pageRenderConcurrency, maxWaitMs: config.pageRenderMaxWaitMs }),
    },
  );
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
    /** The embedded database's own backups (null on a PostgreSQL server). */
    backups: StoreBackups | null;
    /** Work requests started and did not wait for (closing waits for it). */
    background: BackgroundWork;
  }
}
