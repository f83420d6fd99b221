import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { TRPCError } from '@trpc/server';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { STORAGE_CACHE_SECONDS } from '../shared/constants';
import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { EventHub } from './events/events';
import { registerHealthRoutes } from './http/health';
import { registerOriginCheck } from './http/origin-check';
import { printQueueRoutes } from './http/print-queue';
import { uploadRoutes } from './http/uploads';
import { LocalStorage } from './storage/local';
import type { Storage } from './storage/storage';
import { contextFactory, type RateLimitedAction } from './trpc/init';
import { appRouter, type AppRouter } from './trpc/router';

export interface AppDeps {
  database: DatabaseHandle;
  /** Folder of the built client (index.html and assets); omitted, the app serves the API only. */
  clientDir?: string | undefined;
  storage?: Storage;
  logger?: boolean;
}

const RATE_LIMIT_MESSAGE = 'Too many attempts. Please wait a minute and try again.';

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            // Request logs name the path only: query strings can carry reset and confirmation tokens.
            serializers: {
              req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
            },
          },
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 5000 },
  });
  const storageRoot = path.join(config.dataDir, 'storage');
  const storage = deps.storage ?? new LocalStorage(storageRoot);
  app.decorate('storage', storage);

  // An unexpected failure answers with a generic message; its details go to the log only.
  app.setErrorHandler((error: { statusCode?: number; message: string }, req, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) req.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ error: status === 500 ? 'An unexpected error occurred' : error.message });
  });

  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false });
  registerOriginCheck(app, config.publicUrl);

  app.addHook('onSend', async (_req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  });

  const limiters = new Map<RateLimitedAction, ReturnType<FastifyInstance['createRateLimit']>>();
  for (const action of ['signIn', 'signUp', 'passwordReset', 'contact'] as const) {
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

  const events = new EventHub(deps.database);
  await events.start();
  app.addHook('onClose', () => events.stop());

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: contextFactory({ config, database: deps.database, events, storage, rateLimit }),
      onError({ error, path: procedure }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, procedure }, 'tRPC call failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  registerHealthRoutes(app, deps.database.db);
  await app.register(uploadRoutes, { config, db: deps.database.db });
  await app.register(printQueueRoutes, { config, db: deps.database.db });

  // Public files of the storage buckets.
  fs.mkdirSync(storageRoot, { recursive: true });
  await app.register(fastifyStatic, {
    root: storageRoot,
    prefix: '/storage/',
    decorateReply: false,
    index: false,
    list: false,
    cacheControl: false,
    setHeaders(res) {
      res.header('Cache-Control', `public, max-age=${STORAGE_CACHE_SECONDS}`);
      res.header('X-Content-Type-Options', 'nosniff');
    },
  });

  registerClient(app, deps.clientDir, { storeName: config.storeName, storeEmail: config.storeEmail });
  return app;
}

const API_PREFIXES = ['/trpc', '/api/', '/storage/', '/healthz', '/readyz'];

/** Settings the client reads at start-up from a JSON script tag in index.html (no extra request). */
export interface StoreConfig {
  storeName: string;
  storeEmail: string;
}

export const STORE_CONFIG_PLACEHOLDER = '<!--store-config-->';

function renderIndexHtml(template: string, storeConfig: StoreConfig): string {
  // JSON inside a script tag: escape "<" so no value can close the tag.
  const json = JSON.stringify(storeConfig).replace(/</g, '\\u003c');
  return template
    .replace(STORE_CONFIG_PLACEHOLDER, `<script id="store-config" type="application/json">${json}</script>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${storeConfig.storeName.replace(/[<&]/g, '')}</title>`);
}

/** The built client: hashed assets cached for a year, index.html never, and every client route falls back to it. */
function registerClient(app: FastifyInstance, clientDir: string | undefined, storeConfig: StoreConfig): void {
  const indexFile = clientDir ? path.join(clientDir, 'index.html') : undefined;
  const indexHtml = indexFile && fs.existsSync(indexFile) ? renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), storeConfig) : undefined;
  if (clientDir && indexHtml) {
    void app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const sendIndex = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  if (indexHtml) {
    // Explicit routes win over the static wildcard, so the raw template is never served.
    app.get('/', (_req, reply) => sendIndex(reply));
    app.get('/index.html', (_req, reply) => sendIndex(reply));
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !API_PREFIXES.some((p) => url.startsWith(p));
    if (indexHtml && isPage && !path.extname(url)) return sendIndex(reply);
    return reply.code(404).send({ error: 'Not found' });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}
