import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError, openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { migrateToLatest, migrationProvider } from '../../src/server/db/migrate';
import * as trackingAnnounced from '../../migrations/0012_tracking_announced';
import * as noPasswordsInLinks from '../../migrations/0013_no_passwords_in_links';
import { createTestDatabase } from '../support/db';
import { createCustomer } from '../support/factories';
import { startHoldingProxy } from '../support/tcp-proxy';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const tick = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LISTEN/NOTIFY', () => {
  it('delivers a committed notification and not a rolled-back one', async () => {
    const received: string[] = [];
    const stop = await database.listen('threadline_test', (payload) => received.push(payload));
    await sql`select pg_notify('threadline_test', 'committed')`.execute(database.db);
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_notify('threadline_test', 'rolled back')`.execute(trx);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await tick(300);
    expect(received).toEqual(['committed']);
    await stop();
    await sql`select pg_notify('threadline_test', 'after stop')`.execute(database.db);
    await tick(300);
    expect(received).toEqual(['committed']);
  });
});

describe('constraints of the schema', () => {
  it('refuses values outside the status sets of the spec', async () => {
    await expect(
      database.db
        .insertInto('contact_submissions')
        .values({ name: 'a', email: 'a@b.c', subject: 's', message: 'm', status: 'archived' as 'new' })
        .execute(),
    ).rejects.toThrow(/check constraint/);
  });

  it('compares emails case-insensitively for uniqueness', async () => {
    await database.db.insertInto('users').values({ email: 'Case@Example.com', password_hash: 'x' }).execute();
    await expect(database.db.insertInto('users').values({ email: 'case@example.COM', password_hash: 'x' }).execute()).rejects.toThrow(
      /duplicate key/,
    );
  });

  it('fills in the defaults of docs/PRODUCT.md § Limits', async () => {
    const template = await database.db
      .insertInto('mockup_templates')
      .values({ name: 'Tee', front_template_url: '/f.png', back_template_url: '/b.png' })
      .returning(['front_art_position', 'back_art_position'])
      .executeTakeFirstOrThrow();
    expect(template.front_art_position).toEqual({ x: 50, y: 30, width: 30, height: 30, rotation: 0 });
    expect(template.back_art_position).toEqual({ x: 50, y: 30, width: 40, height: 40, rotation: 0 });
  });
});

describe('the embedded database on disk', () => {
  it('can be held by one process (or handle) at a time, with a clear error for the second', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-lock-'));
    const first = await openDatabase({ dataDir });
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(DatabaseBusyError);
      await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by another process/);
    } finally {
      await first.close();
    }
    // Closing releases it; a lock left by a dead process (or an earlier life of our pid) is taken over.
    fs.writeFileSync(path.join(dataDir, 'pgdata.lock'), String(process.pid));
    const second = await openDatabase({ dataDir });
    await migrateToLatest(second.db);
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('migrations', () => {
  it('leave an up-to-date database alone and run the one a database lacks', async () => {
    expect(await migrateToLatest(database.db)).toEqual([]);

    // Every migration from 0016 on undone, as on a database an earlier release left; each later
    // migration's down() must work for this.
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0015_confirmation_links_tied_to_browser')).error).toBeUndefined();
    const undone = (await migrator.getMigrations()).filter((migration) => !migration.executedAt).map((migration) => migration.name);
    expect(undone[0]).toBe('0016_own_account_emails');
    const user = await createCustomer(database.db);
    expect(await migrateToLatest(database.db)).toEqual(undone);
    expect(await migrateToLatest(database.db)).toEqual([]);
    // Accounts from before start with their hour's budget whole.
    const budget = await database.db
      .selectFrom('users')
      .select(['own_emails_since', 'own_emails_sent'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(budget).toEqual({ own_emails_since: null, own_emails_sent: 0 });
  });
});

describe('0013_no_passwords_in_links', () => {
  it('drops the links that carry a password, with the column, and keeps the plain ones', async () => {
    await noPasswordsInLinks.down(database.db as unknown as Kysely<unknown>);
    // A link mailed before for an unconfirmed account, carrying a sign-up's password, and a plain one.
    const user = await createCustomer(database.db, { confirmed: false });
    const link = (tokenHash: string, passwordHash: string | null) =>
      sql`insert into auth_tokens (token_hash, user_id, purpose, expires_at, password_hash)
          values (${tokenHash}, ${user.id}, 'email_confirmation', now() + interval '1 day', ${passwordHash})`.execute(database.db);
    await link('carries-a-password', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA');
    await link('plain', null);
    await noPasswordsInLinks.up(database.db as unknown as Kysely<unknown>);
    const left = await database.db.selectFrom('auth_tokens').select('token_hash').where('user_id', '=', user.id).execute();
    expect(left).toEqual([{ token_hash: 'plain' }]);
    await expect(sql`select password_hash from auth_tokens limit 0`.execute(database.db)).rejects.toThrow(/password_hash/);
  });
});

describe('0012_tracking_announced', () => {
  it('counts as told the tracking numbers of shipped orders only, not one given while an order was moved back', async () => {
    const db = database.db as unknown as Kysely<unknown>;
    await trackingAnnounced.down(db);
    try {
      const customer = await createCustomer(database.db);
      const order = async (status: 'shipped' | 'processing', trackingNumber: string) => {
        const { id } = await database.db
          .insertInto('orders')
          .values({
            customer_id: customer.id,
            subtotal: '10.00',
            total: '10.00',
            status,
            tracking_number: trackingNumber,
            shipping_address: '{}',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await database.db.insertInto('order_events').values({ order_id: id, kind: 'shipped' }).execute();
        return id;
      };
      const shipped = await order('shipped', '1Z 100');
      const movedBack = await order('processing', '1Z 200');
      await trackingAnnounced.up(db);
      const announced = await database.db
        .selectFrom('orders')
        .select(['id', 'tracking_announced'])
        .where('id', 'in', [shipped, movedBack])
        .execute();
      expect(Object.fromEntries(announced.map((row) => [row.id, row.tracking_announced]))).toEqual({
        [shipped]: '1Z 100',
        [movedBack]: null,
      });
    } finally {
      await sql`alter table orders add column if not exists tracking_announced text`.execute(db);
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'connections to a PostgreSQL server that stop answering without closing (a dead peer)',
  () => {
    // Through a proxy whose connections can be held open, passing nothing.
    const throughProxy = async () => {
      const proxy = await startHoldingProxy(new URL((database as { url?: string }).url!), 5432);
      const handle = await openDatabase({ databaseUrl: proxy.url, poolSize: 1, listenerHeartbeatMs: 300, silentConnectionMs: 1_000 });
      return { proxy, handle };
    };

    it('fail the query waiting on one, and the next query gets a new connection', async () => {
      const { proxy, handle } = await throughProxy();
      try {
        expect((await sql<{ n: number }>`select 1 as n`.execute(handle.db)).rows).toEqual([{ n: 1 }]);
        proxy.hold();
        await expect(sql`select 2 as n`.execute(handle.db)).rejects.toThrow(/Connection terminated/);
        expect((await sql<{ n: number }>`select 3 as n`.execute(handle.db)).rows).toEqual([{ n: 3 }]);
      } finally {
        await handle.close();
        await proxy.close();
      }
    });

    it('cannot be told from a slow query by silence alone, so the handle migrations run on has no limit', async () => {
      const url = (database as { url?: string }).url!;
      const limited = await openDatabase({ databaseUrl: url, poolSize: 1, silentConnectionMs: 1_000 });
      const unlimited = await openDatabase({ databaseUrl: url, poolSize: 1 });
      try {
        await expect(sql`select pg_sleep(1.5)`.execute(limited.db)).rejects.toThrow(/Connection terminated/);
        await expect(sql`select pg_sleep(1.5)`.execute(unlimited.db)).resolves.toBeDefined();
      } finally {
        await limited.close();
        await unlimited.close();
      }
    });

    it('drop the LISTENing one and open it again, which delivers again', async () => {
      const { proxy, handle } = await throughProxy();
      try {
        const received: string[] = [];
        let lost = 0;
        let resumed = 0;
        await handle.listen('threadline_heartbeat', (payload) => received.push(payload), {
          onLost: () => lost++,
          onResumed: () => resumed++,
        });
        const notify = (payload: string) => sql`select pg_notify('threadline_heartbeat', ${payload})`.execute(database.db);
        await notify('before');
        await expect.poll(() => received).toEqual(['before']);

        // The line goes silent: what is sent now is lost, and the connection never closes by itself.
        proxy.hold();
        await notify('lost');
        await expect.poll(() => resumed, { timeout: 10_000 }).toBe(1);
        expect(lost).toBe(1);
        await notify('after');
        await expect.poll(() => received).toEqual(['before', 'after']);
      } finally {
        await handle.close();
        await proxy.close();
      }
    });
  },
);
