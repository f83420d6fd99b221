import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';
import type { Storage } from '../storage/storage';

export function registerHealthRoutes(app: FastifyInstance, db: Db, storage: Storage): void {
  // Liveness: the process answers, busy or not (a busy process is not restarted, only not ready).
  app.get('/healthz', { config: { pressureHandler: () => null } }, () => ({ ok: true }));
  // Readiness: the database and the file storage answer too.
  app.get('/readyz', async (req, reply) => {
    const [database, files] = await Promise.allSettled([sql`select 1`.execute(db), storage.check()]);
    const problems = [database.status === 'rejected' && 'Database unavailable', files.status === 'rejected' && 'File storage unavailable'];
    const error = problems.filter(Boolean).join('; ');
    if (!error) return { ok: true };
    if (files.status === 'rejected') req.log.warn({ err: files.reason }, 'readiness: file storage unavailable');
    return reply.code(503).send({ ok: false, error });
  });
}
