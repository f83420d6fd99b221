import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * LISTEN on a channel; resolves to a function that stops listening. `onLost` is called when the
   * connection that listens is lost, and `onResumed` when it is back: what was sent in between
   * never arrived.
   */
  listen(channel: string, onMessage: (payload: string) => void, connection?: ListenerConnectionHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ListenerConnectionHandlers {
  onLost?: () => void;
  onResumed?: () => void;
}

/** The `application_name` of the connection that LISTENs for a process (openPostgres). */
export const LISTENER_APPLICATION_NAME = 'threadline-listener';

/**
 * The PostgreSQL extensions the schema uses, loaded into every embedded database: pg_trgm serves
 * the storefront's search (migration 0021). A PGlite opened without them cannot read the tables.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

/** How often the LISTENing connection is asked whether it is alive, and how long it has to answer. */
const LISTENER_HEARTBEAT_MS = 30_000;
const LISTENER_HEARTBEAT_TIMEOUT_MS = 10_000;
/**
 * How long the app's pooled connections to a server may go without a byte (server.ts). Queries on
 * the request path, the email processor's and the renewal engine's are short; migrations, which
 * may wait for another process's migrations or build an index, run on a handle without this limit.
 */
export const APP_CONNECTION_SILENCE_MS = 30_000;

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const DATE_OID = 1082;

// Timestamps leave the database as ISO-8601 strings, calendar dates as 'YYYY-MM-DD' and counts as numbers, so results
// serialise over tRPC unchanged and both drivers return the same shapes.
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID) return (value: string) => new Date(value).toISOString();
    if (oid === INT8_OID) return (value: string) => Number(value);
    if (oid === DATE_OID) return (value: string) => value;
    return pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown;
  },
};

export interface OpenDatabaseOptions {
  /** A PostgreSQL server; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded database's files. */
  dataDir?: string | undefined;
  /** An already open PGlite instance (tests load a migrated template into memory). */
  pglite?: PGlite;
  poolSize?: number;
  /** How often a PostgreSQL server's LISTENing connection is checked (30 s; tests ask for less). */
  listenerHeartbeatMs?: number;
  /** How long a pooled connection to a server may go without a byte before it is dropped; unset, no limit. */
  silentConnectionMs?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      poolSize: options.poolSize ?? 10,
      heartbeatMs: options.listenerHeartbeatMs ?? LISTENER_HEARTBEAT_MS,
      silentMs: options.silentConnectionMs ?? 0,
    });
  }
  if (options.pglite) return wrapPglite(options.pglite, () => options.pglite!.close());
  if (!options.dataDir) throw new Error('openDatabase needs databaseUrl, dataDir or pglite');
  const pgdata = path.join(options.dataDir, 'pgdata');
  fs.mkdirSync(pgdata, { recursive: true });
  const releaseLock = acquireLock(`${pgdata}.lock`);
  try {
    const pglite = await PGlite.create(pgdata, { extensions: PGLITE_EXTENSIONS });
    return wrapPglite(pglite, async () => {
      await pglite.close();
      releaseLock();
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
}

function openPostgres(
  databaseUrl: string,
  { poolSize, heartbeatMs, silentMs }: { poolSize: number; heartbeatMs: number; silentMs: number },
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    types: typeParsers,
    // Idle connections close first, so the silence below only ends one that waits on an answer.
    idleTimeoutMillis: silentMs > 0 ? Math.min(10_000, silentMs / 2) : 10_000,
    // A connection can die without a word (a failover whose old host is gone, a NAT that forgot
    // it): a query on it would wait for as long as the kernel keeps the socket, and with it the
    // request, the email processor's and the renewal engine's next runs. No query of ours is
    // silent that long, so the socket is dropped, the query fails and the pool opens a new one.
    stream: () => {
      const socket = new net.Socket();
      // Destroyed without an error: pg may have stopped listening for one on a socket it is done with.
      if (silentMs > 0) socket.setTimeout(silentMs, () => socket.destroy());
      return socket;
    },
  });
  // A client that loses its connection must not crash the process: an idle one is the pool's to
  // report (and replace); a busy one's query fails with the error, and the client would emit it
  // again with no one listening (pg-pool listens to idle clients only).
  pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

  // One connection LISTENs for the whole process. When it drops (a database restart or failover,
  // a proxy's idle timeout), it is opened again, backing off to every 10 s, and LISTENs on every
  // channel again; the listeners are then told that what was sent meanwhile never arrived.
  const handlers = new Map<string, Set<{ onMessage: (payload: string) => void; connection: ListenerConnectionHandlers }>>();
  const tellListeners = (what: keyof ListenerConnectionHandlers) => {
    for (const set of handlers.values()) for (const handler of set) handler.connection[what]?.();
  };
  let listener: Promise<pg.Client> | undefined;
  let reconnecting = false;
  let closed = false;

  const connectListener = (): Promise<pg.Client> => {
    // Its own socket, so a connection found dead can be dropped at once (ending it politely would
    // wait on a peer that is gone).
    let socket: net.Socket | undefined;
    const client = new pg.Client({
      connectionString: databaseUrl,
      // Named, so pg_stat_activity tells it from the pool's connections.
      application_name: LISTENER_APPLICATION_NAME,
      // A LISTENing connection sends nothing; keepalives stop a NAT or firewall dropping it as idle.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      stream: () => (socket = new net.Socket()),
    });
    // A connection can also die without a word (a failover whose old host is gone): asked a trivial
    // question now and then, one that does not answer in time is dropped, and 'end' reconnects.
    const heartbeat = setInterval(() => {
      const timeout = new Promise((_resolve, reject) => setTimeout(reject, Math.min(heartbeatMs, LISTENER_HEARTBEAT_TIMEOUT_MS)).unref());
      Promise.race([client.query('SELECT 1'), timeout]).catch(() => socket?.destroy());
    }, heartbeatMs);
    heartbeat.unref();
    let listening = false;
    const attempt = (async () => {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      listening = true;
      return client;
    })();
    attempt.catch(() => clearInterval(heartbeat));
    client.on('error', (error) => console.error('PostgreSQL listener error:', error.message));
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler.onMessage(message.payload ?? '');
    });
    client.once('end', () => {
      clearInterval(heartbeat);
      if (closed || listener !== attempt) return;
      if (listening) tellListeners('onLost');
      void reconnect();
    });
    return attempt;
  };

  const reconnect = async () => {
    if (reconnecting) return;
    reconnecting = true;
    for (let delayMs = 100; !closed; delayMs = Math.min(delayMs * 2, 10_000)) {
      // Unref'd: a process shutting down does not wait for the next attempt.
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      if (closed) break;
      listener = connectListener();
      const connected = await listener.then(
        () => true,
        () => false,
      );
      if (connected) {
        console.warn('PostgreSQL listener connection restored');
        tellListeners('onResumed');
        break;
      }
    }
    reconnecting = false;
  };

  return {
    db,
    kind: 'postgres',
    async listen(channel, onMessage, connection = {}) {
      let set = handlers.get(channel);
      const newChannel = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      const handler = { onMessage, connection };
      set.add(handler);
      // A connection still opening LISTENs on the channel itself; LISTEN twice is harmless.
      const client = await (listener ??= connectListener());
      if (newChannel) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          // A lost connection listens to nothing; the next one will not LISTEN on this channel.
          await listener?.then((client) => client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`)).catch(() => undefined);
        }
      };
    },
    async close() {
      closed = true;
      await db.destroy();
      await (await listener?.catch(() => undefined))?.end();
    },
  };
}

function wrapPglite(pglite: PGlite, closePglite: () => Promise<void>): DatabaseHandle {
  const pool = new pg.Pool({ ...createPgConfig(pglite), types: typeParsers });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    listen: (channel, onMessage) => pglite.listen(channel, onMessage),
    async close() {
      await db.destroy();
      await closePglite();
    },
  };
}

/** Lock files this process holds: a lock naming our own pid but not listed here is a leftover. */
const heldLocks = new Set<string>();

/**
 * PGlite is a single-process database: a second process opening the same folder would
 * corrupt it. A lock file holding the owner's pid turns that into a clear error.
 */
function acquireLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      heldLocks.add(lockPath);
      return () => {
        heldLocks.delete(lockPath);
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(lockPath, 'utf8'));
      // Our own pid can be a leftover too: a container's server is pid 1 on every start.
      const held = owner === process.pid ? heldLocks.has(lockPath) : owner > 0 && isRunning(owner);
      if (held) {
        throw new DatabaseBusyError(
          `The embedded database in ${path.dirname(lockPath)} is in use by another process (pid ${owner}), ` +
            'most likely the running server. Stop the server first, or set DATABASE_URL to use a PostgreSQL server.',
        );
      }
      fs.rmSync(lockPath, { force: true }); // left behind by a process that is gone
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
