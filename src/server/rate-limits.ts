import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { DatabaseHandle, Db } from './db/database';

// Where the per-client budgets of abuse-prone actions are counted. Every app process
// must see the same counts, or two processes double every limit: on a PostgreSQL server they live
// in the rate_limit_counters table, or in Redis when REDIS_URL is set. The embedded database has
// one process, so it counts in memory (@fastify/rate-limit's own store, `store` undefined).

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** How often expired counters are deleted from the table. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** How long a process counts in the database after Redis failed it, before trying Redis again. */
const REDIS_RETRY_AFTER_MS = 2_000;

/** One request counted against `key` in the table: a new window starts when the last one has ended. */
async function countInDatabase(db: Db, key: string, timeWindow: number) {
  const { rows } = await sql<{ current: number; ttl: number }>`
    insert into rate_limit_counters as counter (key, count, window_ends_at)
    values (${key}, 1, now() + make_interval(secs => ${timeWindow / 1000}))
    on conflict (key) do update set
      count = case when counter.window_ends_at <= now() then 1 else counter.count + 1 end,
      window_ends_at = case when counter.window_ends_at <= now() then excluded.window_ends_at else counter.window_ends_at end
    returning count as current, greatest(0, ceil(extract(epoch from window_ends_at - now()) * 1000))::int as ttl
  `.execute(db);
  return rows[0]!;
}

// A window's count and what is left of it, in one round trip: the expiry is set only by the
// request that opens the window.
const REDIS_COUNT = `
  local current = redis.call('INCR', KEYS[1])
  if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  return {current, redis.call('PTTL', KEYS[1])}
`;

export interface RateLimitCounters {
  /** For @fastify/rate-limit's `store` option; undefined counts in this process's memory. */
  store: FastifyRateLimitStoreCtor | undefined;
  close(): Promise<void>;
}

export async function rateLimitCounters({
  redisUrl,
  database,
  log,
}: {
  redisUrl: string | undefined;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
}): Promise<RateLimitCounters> {
  const shared = database.kind === 'postgres';
  if (!redisUrl && !shared) return { store: undefined, close: () => Promise.resolve() };

  const db = database.db;
  const prune = setInterval(() => {
    db.deleteFrom('rate_limit_counters')
      .where('window_ends_at', '<', sql<string>`now()`)
      .execute()
      .catch((error: unknown) => log.warn({ err: error }, 'could not prune expired rate-limit counters'));
  }, PRUNE_EVERY_MS);
  prune.unref();

  // Commands fail at once while Redis is away and after a second when it stops answering, instead
  // of queueing until it is back; ioredis keeps reconnecting meanwhile.
  // Loaded only when configured: it is a tenth of a second of every start-up otherwise.
  const redis = redisUrl
    ? new (await import('ioredis')).Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 1_000 })
    : undefined;
  // A failed command (a slow answer keeps the connection up) sends this process's counts to the
  // database for a moment, not for good: the others would go on counting in Redis, each doubling
  // the other's budget.
  let redisRestsUntil = 0;
  let warned = false;
  const redisAway = (error: unknown) => {
    redisRestsUntil = Date.now() + REDIS_RETRY_AFTER_MS;
    if (!warned) log.warn({ err: error }, 'Redis is unreachable: rate limits are counted in the database until it is back');
    warned = true;
  };
  redis?.on('error', redisAway);

  // Never no limit: without Redis the count comes from the database (shared on a server).
  const count = async (key: string, timeWindow: number) => {
    if (redis?.status === 'ready' && Date.now() >= redisRestsUntil) {
      try {
        const [current, ttl] = (await redis.eval(REDIS_COUNT, 1, `threadline:rate-limit:${key}`, timeWindow)) as [number, number];
        if (warned) log.info('Redis is back: rate limits are counted there again');
        warned = false;
        return { current, ttl: Math.max(0, ttl) };
      } catch (error) {
        redisAway(error);
      }
    }
    return countInDatabase(db, key, timeWindow);
  };

  class SharedCounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: Counted, timeWindow: number): void {
      count(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }

  return {
    store: SharedCounterStore,
    async close() {
      clearInterval(prune);
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
