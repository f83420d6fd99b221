import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import type { EventHub } from '../events/events';
import type { Storage } from '../storage/storage';

export function registerHealthRoutes(app: FastifyInstance, db: Db, storage: Storage, events: EventHub): void {
  // Liveness: the process answers, busy or not (a busy process is not restarted, only not ready).
  app.get('/healthz', { config: { pressureHandler: () => null } }, () => ({ ok: true }));
  // Readiness: the database and the file storage answer too. The connection that LISTENs is
  // reported beside them: while it reconnects (backing off to every 10 s) pages are served all the
  // same, fresh from the database, and only live updates wait, so the process stays ready.
  app.get('/readyz', async (req, reply) => {
    const [database, files] = await Promise.allSettled([sql`select 1`.execute(db), storage.check()]);
    const listener = events.connected ? 'connected' : 'reconnecting';
    const problems = [database.status === 'rejected' && 'Database unavailable', files.status === 'rejected' && 'File storage unavailable'];
    const error = problems.filter(Boolean).join('; ');
    if (!error) return { ok: true, listener };
    if (files.status === 'rejected') req.log.warn({ err: files.reason }, 'readiness: file storage unavailable');
    return reply.code(503).send({ ok: false, error, listener });
  });
}
