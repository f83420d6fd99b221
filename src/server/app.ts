import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyUnderPressure from '@fastify/under-pressure';
import { TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { MAX_BATCH_CALLS, STORAGE_CACHE_SECONDS } from '../shared/constants';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { BackgroundWork } from './background';
import { EventHub } from './events/events';
import { registerClient, type ClientSource } from './http/client';
import { registerHealthRoutes } from './http/health';
import { registerOriginCheck } from './http/origin-check';
import { printQueueRoutes } from './http/print-queue';
import { registerSecurityHeaders, storedFileDisposition } from './http/security-headers';
import { uploadRoutes } from './http/uploads';
import { webhookRoutes } from './http/webhooks';
import { createPaymentProvider } from './payments';
import type { PaymentProvider } from './payments/provider';
import { LocalStorage } from './storage/local';
import type { Storage } from './storage/storage';
import { createContextFactory, RATE_LIMITED_ACTIONS, type RateLimitedAction } from './trpc/init';
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
  /** The subscription calendar's clock; the system's by default. */
  clock?: Clock;
  logger?: boolean;
}

const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.';
const MAX_JSON_BODY_BYTES = 128 * 1024;

/** Readable logs in a developer's terminal (pino-pretty, a devDependency); JSON lines everywhere else. */
function prettyTransport(config: Config) {
  if (config.isProduction || !process.stdout.isTTY) return undefined;
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname,reqId' } };
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            transport: prettyTransport(config),
            // Request logs name the path only: query strings can carry reset and confirmation tokens.
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
            },
          },
    // A hop count as Fastify itself reads one (its types leave the number form out): the last n hops are proxies.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
    // JSON bodies (tRPC calls) are small; uploads and webhooks set their own limits.
    bodyLimit: MAX_JSON_BODY_BYTES,
  });
  const storageRoot = path.join(config.dataDir, 'storage');
  const storage = deps.storage ?? new LocalStorage(storageRoot);
  app.decorate('storage', storage);

  // An unexpected failure answers with a generic message; its details go to the log only.
  app.setErrorHandler((error: { statusCode?: number; message: string }, req, reply) => {
    // Client errors, and 503 from load shedding (with its Retry-After), keep their status.
    const code = error.statusCode ?? 500;
    const status = (code >= 400 && code < 500) || code === 503 ? code : 500;
    if (status === 500) req.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ error: status === 500 ? 'An unexpected error occurred' : error.message });
  });

  // First, so that every answer carries the headers, even one an early hook sends (503, 403).
  await registerSecurityHeaders(app, config);
  await app.register(fastifyCookie);
  // A process whose event loop lags answers 503 with Retry-After at once instead of making
  // everyone wait into timeouts (readiness too, so a balancer sends traffic elsewhere).
  if (config.loadShedEventLoopDelayMs > 0) {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay: config.loadShedEventLoopDelayMs,
      retryAfter: 10,
      message: 'The store is busy. Please try again in a few seconds.',
    });
  }
  await app.register(fastifyRateLimit, { global: false });
  registerOriginCheck(app, config.publicUrl);

  const limiters = new Map<RateLimitedAction, ReturnType<FastifyInstance['createRateLimit']>>();
  for (const action of RATE_LIMITED_ACTIONS) {
    limiters.set(
      action,
      app.createRateLimit({
        max: config.authRateLimitPerMinute,
        timeWindow: 60_000,
        keyGenerator: (req: FastifyRequest) => `${action}:${req.ip}`,
      }),
    );
  }
  const rateLimit = async (req: FastifyRequest, action: RateLimitedAction) => {
    const result = await limiters.get(action)!(req);
    if (!result.isAllowed && result.isExceeded) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: RATE_LIMIT_MESSAGE });
    }
  };

  const payments = deps.payments ?? createPaymentProvider(config);
  const background = new BackgroundWork();
  const events = new EventHub(deps.database);
  await events.start();
  // Live streams end as soon as closing starts (an open stream would hold the close), and work
  // started by requests finishes before the database goes.
  app.addHook('preClose', () => events.stop());
  app.addHook('onClose', () => background.settled());

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: createContextFactory(
        { config, db: deps.database.db, events, storage, payments, clock: deps.clock ?? systemClock, background },
        rateLimit,
      ),
      // The client batches up to this many calls; more in one request is someone else's client.
      maxBatchSize: MAX_BATCH_CALLS,
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, procedure }, 'tRPC call failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerHealthRoutes(app, deps.database.db);
  await app.register(uploadRoutes, { config, db: deps.database.db });
  await app.register(printQueueRoutes, { config, db: deps.database.db });
  await app.register(webhookRoutes, { db: deps.database.db, mail: config, payments, clock: deps.clock ?? systemClock });

  // Public files of the storage buckets.
  fs.mkdirSync(storageRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: storageRoot,
    prefix: '/storage/',
    decorateReply: false,
    index: false,
    list: false,
    cacheControl: false,
    setHeaders(res, filePath) {
      res.header('Cache-Control', `public, max-age=${STORAGE_CACHE_SECONDS}`);
      res.header('X-Content-Type-Options', 'nosniff');
      res.header('Content-Disposition', storedFileDisposition(filePath));
    },
  });

  const client: ClientSource | undefined = deps.devClientRoot
    ? { kind: 'dev', root: deps.devClientRoot }
    : deps.clientDir
      ? { kind: 'built', dir: deps.clientDir }
      : undefined;
  await registerClient(app, client, { storeName: config.storeName, storeEmail: config.storeEmail });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}
