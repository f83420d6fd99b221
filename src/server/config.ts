import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { EmailSender } from './email/transport';

// The only reader of process.env. Everything else receives a parsed Config.

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const booleanFlag = (fallback: 'true' | 'false') =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
      .default(fallback)
      .transform((value) => value === 'true' || value === '1'),
  );

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const isProxyAddress = (entry: string) => {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
};

/**
 * Who may set X-Forwarded-For: nobody (false), the last n hops, or proxies at these addresses
 * (Fastify's trustProxy forms). `true`, believing anyone, would let a client pick its own IP and
 * dodge every rate limit, so it is refused.
 */
const trustedProxies = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('false')
    .transform((value, ctx): false | number | string[] => {
      const text = value.trim();
      if (text === 'false' || text === '0') return false;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      if (text === 'true' || !entries.every(isProxyAddress)) {
        ctx.addIssue({
          code: 'custom',
          message:
            text === 'true'
              ? 'true would believe any X-Forwarded-For header, so a client could choose its own IP and dodge the rate limits: give the number of proxies in front of the app (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)'
              : 'must be false, a number of proxies (e.g. 1) or proxy addresses and CIDR ranges separated by commas (e.g. 10.0.0.0/8,127.0.0.1)',
        });
        return z.NEVER;
      }
      return entries;
    }),
);

const positiveInt = (fallback: number, min = 1) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .min(min, { error: `must be at least ${min}` })
      .default(fallback),
  );

const urlWithProtocols = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (value) => {
          try {
            return protocols.includes(new URL(value).protocol);
          } catch {
            return false;
          }
        },
        `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      )
      .optional(),
  );

/** Nothing but scheme, host and port: URL's parser is asked, as it reads `\` as `/` and drops user info from the origin. */
const isOriginOnly = (url: URL) => url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;

const envSchema = z
  .object({
    NODE_ENV: z.preprocess(
      emptyToUndefined,
      z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
    ),
    PORT: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be a port number' })
        .int()
        .min(0, { error: 'must be a port number from 0 to 65535' })
        .max(65535, { error: 'must be a port number from 0 to 65535' })
        .default(3000),
    ),
    HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
    DATABASE_URL: urlWithProtocols(['postgres:', 'postgresql:']),
    REDIS_URL: urlWithProtocols(['redis:', 'rediss:']),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
    // The store answers at the root of its host: a path here would be left out of every link.
    PUBLIC_URL: urlWithProtocols(['http:', 'https:']).refine(
      (value) => value === undefined || !URL.canParse(value) || isOriginOnly(new URL(value)),
      "must be the store's origin alone (https://shop.example.com): the store is served at the root of its host",
    ),
    STORE_NAME: z.preprocess(
      emptyToUndefined,
      z.string().trim().min(1).max(60, { error: 'must be at most 60 characters' }).default('Threadline'),
    ),
    STORE_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: 'must be an email address' }).default('support@threadline.example')),
    EMAIL_FROM: optionalString,
    SMTP_URL: urlWithProtocols(['smtp:', 'smtps:']),
    EMAIL_POLL_INTERVAL_MS: positiveInt(5000, 100),
    SUBSCRIPTION_RENEW_INTERVAL_MS: positiveInt(60_000, 1000),
    SUBSCRIPTION_PAYMENT_RETRIES: positiveInt(3, 0),
    SUBSCRIPTION_RETRY_DAYS: positiveInt(3),
    EMAIL_MAX_RETRIES: positiveInt(5),
    EMAIL_BATCH_SIZE: positiveInt(20),
    SESSION_DAYS: positiveInt(30),
    AUTH_RATE_LIMIT_PER_MINUTE: positiveInt(10),
    LOAD_SHED_EVENT_LOOP_DELAY_MS: positiveInt(1000, 0),
    PAGE_CACHE_ENTRIES: positiveInt(200, 0),
    PAGE_RENDER_CONCURRENCY: positiveInt(2),
    PAGE_RENDER_MAX_WAIT_MS: positiveInt(1000, 0),
    TRUST_PROXY: trustedProxies,
    SEED_DEMO_DATA: booleanFlag('true'),
    S3_BUCKET: optionalString,
    S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
    S3_ENDPOINT: urlWithProtocols(['http:', 'https:']),
    S3_FORCE_PATH_STYLE: booleanFlag('false'),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_PUBLIC_URL: urlWithProtocols(['http:', 'https:']),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: urlWithProtocols(['http:', 'https:']),
    PRINTFUL_API_TOKEN: optionalString,
    PRINTFUL_WEBHOOK_SECRET: optionalString,
    PRINTFUL_API_URL: urlWithProtocols(['http:', 'https:']),
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: 'must be an email address' }).optional()),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(6, { error: 'must be at least 6 characters' }).optional()),
    BACKUP_HOUR: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: 'must be an hour from 0 to 23' })
        .int({ error: 'must be an hour from 0 to 23' })
        .min(0, { error: 'must be an hour from 0 to 23' })
        .max(23, { error: 'must be an hour from 0 to 23' })
        .default(3),
    ),
    BACKUP_KEEP: positiveInt(7),
    EMAIL_RETENTION_DAYS: positiveInt(90),
    // A bearer token a scraper sends; short ones are guessed.
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, { error: 'must be at least 16 characters' }).optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  })
  .superRefine((env, ctx) => {
    if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY === undefined ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET'],
        message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
      });
    }
    if ((env.PRINTFUL_API_TOKEN === undefined) !== (env.PRINTFUL_WEBHOOK_SECRET === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.PRINTFUL_API_TOKEN === undefined ? 'PRINTFUL_API_TOKEN' : 'PRINTFUL_WEBHOOK_SECRET'],
        message: 'PRINTFUL_API_TOKEN and PRINTFUL_WEBHOOK_SECRET must be set together',
      });
    }
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      });
    }
    if (env.S3_BUCKET === undefined) {
      for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_PUBLIC_URL'] as const) {
        if (env[name] !== undefined)
          ctx.addIssue({ code: 'custom', path: [name], message: 'needs S3_BUCKET: files are stored on S3 only when it is set' });
      }
    }
    if ((env.ADMIN_EMAIL === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL === undefined ? 'ADMIN_EMAIL' : 'ADMIN_PASSWORD'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
  });

/** Files go to this S3 (or S3-compatible) bucket instead of the local disk. */
export interface S3Config {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2); AWS's own endpoint when unset. */
  endpoint: string | undefined;
  /** bucket in the path (http://host/bucket/key), as MinIO expects, instead of in the host name. */
  forcePathStyle: boolean;
  /** The SDK's default chain (environment, instance role) when unset. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Public files are sent there (a CDN or the bucket's public address) instead of through the app. */
  publicUrl: string | undefined;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Rate-limit counters live in Redis when set (else in the database on a server, in memory when embedded). */
  redisUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  storeName: string;
  storeEmail: string;
  emailFrom: EmailSender;
  smtpUrl: string | undefined;
  emailPollIntervalMs: number;
  /** How often the subscription engine looks for cycles that are due. */
  subscriptionRenewIntervalMs: number;
  /** A card membership's unpaid invoice is tried this many more times, this many days apart, then the membership ends. */
  subscriptionPaymentRetries: number;
  subscriptionRetryDays: number;
  emailMaxRetries: number;
  emailBatchSize: number;
  sessionDays: number;
  authRateLimitPerMinute: number;
  /** Requests are refused with 503 while the event loop lags more than this (0: never). */
  loadShedEventLoopDelayMs: number;
  /** At most this many rendered storefront pages are kept (0: none). */
  pageCacheEntries: number;
  /** Pages rendered at once; the others wait their turn. */
  pageRenderConcurrency: number;
  /** A page whose render would wait longer than this for its turn is answered 503 at once. */
  pageRenderMaxWaitMs: number;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  seedDemoData: boolean;
  initialAdmin: { email: string; password: string } | undefined;
  logLevel: string;
  /** The embedded database's daily backup: the hour it is taken at (the server's local time), and how many are kept. */
  backupHour: number;
  backupKeep: number;
  /** Sent emails are deleted this many days after they went out. */
  emailRetentionDays: number;
  /** GET /metrics answers only to this bearer token; unset, it is not served at all. */
  metricsToken: string | undefined;
  /** Files live on the local disk (DATA_DIR/storage) unless this is set. */
  s3: S3Config | undefined;
  /** Stripe takes the payments when both keys are set; otherwise orders are paid by hand (manual). */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  /** Printful prints and ships paid orders when both are set; otherwise the shop does (the print queue). */
  printful: PrintfulConfig | undefined;
}

export interface PrintfulConfig {
  apiToken: string;
  /** The webhook secret Printful signs its notices with, as hex (shown when the webhook is set up). */
  webhookSecret: string;
  /** Printful's API (https://api.printful.com) unless set: only tests point it elsewhere. */
  apiUrl: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin;
  return {
    nodeEnv: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl,
    storeName: e.STORE_NAME,
    storeEmail: e.STORE_EMAIL,
    // Parts, not "Name <address>" glued: nodemailer quotes a name holding ':', ',' or '(' itself.
    emailFrom: e.EMAIL_FROM ?? { name: e.STORE_NAME, address: e.STORE_EMAIL },
    smtpUrl: e.SMTP_URL,
    emailPollIntervalMs: e.EMAIL_POLL_INTERVAL_MS,
    subscriptionRenewIntervalMs: e.SUBSCRIPTION_RENEW_INTERVAL_MS,
    subscriptionPaymentRetries: e.SUBSCRIPTION_PAYMENT_RETRIES,
    subscriptionRetryDays: e.SUBSCRIPTION_RETRY_DAYS,
    emailMaxRetries: e.EMAIL_MAX_RETRIES,
    emailBatchSize: e.EMAIL_BATCH_SIZE,
    sessionDays: e.SESSION_DAYS,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    loadShedEventLoopDelayMs: e.LOAD_SHED_EVENT_LOOP_DELAY_MS,
    pageCacheEntries: e.PAGE_CACHE_ENTRIES,
    pageRenderConcurrency: e.PAGE_RENDER_CONCURRENCY,
    pageRenderMaxWaitMs: e.PAGE_RENDER_MAX_WAIT_MS,
    trustProxy: e.TRUST_PROXY,
    seedDemoData: e.SEED_DEMO_DATA,
    initialAdmin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    logLevel: e.LOG_LEVEL,
    backupHour: e.BACKUP_HOUR,
    backupKeep: e.BACKUP_KEEP,
    emailRetentionDays: e.EMAIL_RETENTION_DAYS,
    metricsToken: e.METRICS_TOKEN,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ''),
        }
      : undefined,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
        : undefined,
    printful:
      e.PRINTFUL_API_TOKEN && e.PRINTFUL_WEBHOOK_SECRET
        ? {
            apiToken: e.PRINTFUL_API_TOKEN,
            webhookSecret: e.PRINTFUL_WEBHOOK_SECRET,
            apiUrl: e.PRINTFUL_API_URL ?? 'https://api.printful.com',
          }
        : undefined,
  };
}

/**
 * What a store on a PostgreSQL server keeps in this process's DATA_DIR, where a second process
 * would not find it: emails in its outbox folder, files in its storage folder. One warning each.
 */
export function folderWarnings(config: Pick<Config, 'smtpUrl' | 's3'>, databaseKind: 'pglite' | 'postgres'): string[] {
  if (databaseKind !== 'postgres') return [];
  return [
    config.smtpUrl
      ? undefined
      : 'SMTP_URL is unset: emails are written to the outbox folder of whichever process sends them; with more than one process, set SMTP_URL',
    config.s3
      ? undefined
      : "S3_BUCKET is unset: files are stored in this process's DATA_DIR/storage; with more than one process, set S3_BUCKET so every process serves them",
  ].filter((warning) => warning !== undefined);
}
