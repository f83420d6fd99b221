import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { callTrpc, createTestApp, type TestApp } from '../support/app';
import { startHoldingProxy, type HoldingProxy } from '../support/tcp-proxy';

// Rate limits count across every app process: two apps on one database stand in for
// two processes. Each test signs in from its own made-up client address (one proxy trusted), so
// no count left by another test or an earlier run is in its way.

const LIMIT = 4;
const onServer = Boolean(process.env.TEST_DATABASE_URL);
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const newClientAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Wrong-password sign-ins from one client, alternating between the apps; the status of each. */
async function signInAttempts(apps: FastifyInstance[], client: string, attempts: number) {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const res = await callTrpc(apps[attempt % apps.length]!, 'auth.signIn', {
      input: { email: 'nobody@example.com', password: 'wrong password' },
      headers: { 'x-forwarded-for': client },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

/** The first app on a fresh database and a second one on the same database, both with `env`. */
async function twoProcesses(env: Record<string, string>) {
  const first = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1', ...env });
  const second = await buildApp(first.config, { database: first.database, logger: false });
  await second.ready();
  return { first, second, apps: [first.app, second] };
}

const limited = [...Array<number>(LIMIT).fill(400), 429, 429];

describe('shared rate limits', () => {
  let setup: { first: TestApp; second: FastifyInstance; apps: FastifyInstance[] } | undefined;
  afterAll(async () => {
    await setup?.second.close();
    await setup?.first.close();
  });

  it.runIf(onServer)('counts sign-in attempts spread over two processes in the database', async () => {
    setup = await twoProcesses({});
    const client = newClientAddress();
    expect(await signInAttempts(setup.apps, client, LIMIT + 2)).toEqual(limited);
    const counter = await setup.first.db
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('key', '=', `signIn:${client}`)
      .executeTakeFirst();
    expect(counter?.count).toBe(LIMIT + 2);
  });
});

describe('shared rate limits in Redis', () => {
  let setup: { first: TestApp; second: FastifyInstance; apps: FastifyInstance[] } | undefined;
  let stalling: { app: TestApp; proxy: HoldingProxy } | undefined;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  beforeAll(() => redis.connect());

  /** Whether a sign-in attempt through `app` is counted in Redis (its connection is up). */
  const countedInRedis = async (app: FastifyInstance) => {
    const client = newClientAddress();
    await signInAttempts([app], client, 1);
    const key = `threadline:rate-limit:signIn:${client}`;
    const counted = (await redis.get(key)) === '1';
    await redis.del(key);
    return counted;
  };
  afterAll(async () => {
    await setup?.second.close();
    await setup?.first.close();
    await stalling?.app.close();
    await stalling?.proxy.close();
    await redis.quit();
  });

  it('counts sign-in attempts spread over two processes in Redis when REDIS_URL is set', async () => {
    setup = await twoProcesses({ REDIS_URL });
    const client = newClientAddress();
    const key = `threadline:rate-limit:signIn:${client}`;
    try {
      // Both apps' Redis connections are ready before counting, or their first counts go to the database.
      for (const app of setup.apps) await expect.poll(() => countedInRedis(app)).toBe(true);
      expect(await signInAttempts(setup.apps, client, LIMIT + 2)).toEqual(limited);
      expect(await redis.get(key)).toBe(String(LIMIT + 2));
      expect(await redis.pttl(key)).toBeGreaterThan(0);
    } finally {
      await redis.del(key);
    }
  });

  it('counts in Redis again once it answers after a stall', async () => {
    const proxy = await startHoldingProxy(new URL(REDIS_URL), 6379);
    stalling = { proxy, app: await createTestApp({ TRUST_PROXY: '1', REDIS_URL: proxy.url }) };
    const { app } = stalling.app;
    await expect.poll(() => countedInRedis(app)).toBe(true);
    // Redis stops answering, the connection stays up: the count waits a second, then goes to the database.
    proxy.hold();
    expect(await countedInRedis(app)).toBe(false);
    proxy.release();
    await expect.poll(() => countedInRedis(app), { timeout: 10_000, interval: 250 }).toBe(true);
  });
});

describe('rate limits with Redis unreachable', () => {
  let setup: { first: TestApp; second: FastifyInstance; apps: FastifyInstance[] } | undefined;
  afterAll(async () => {
    await setup?.second.close();
    await setup?.first.close();
  });

  it('falls back to counting in the database, never to no limit', async () => {
    // Nothing listens on port 1.
    setup = await twoProcesses({ REDIS_URL: 'redis://127.0.0.1:1' });
    const client = newClientAddress();
    // Embedded, "two processes" share one database too: the fallback counts there either way.
    expect(await signInAttempts(setup.apps, client, LIMIT + 2)).toEqual(limited);
  });
});
