import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database';

export function registerHealthRoutes(app: FastifyInstance, db: Db): void {
  // Liveness: the process answers, busy or not (a busy process is not restarted, only not ready).
  app.get('/healthz', { config: { pressureHandler: () => null } }, () => ({ ok: true }));
  // Readiness: the database answers too.
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { ok: true };
    } catch {
      return reply.code(503).send({ ok: false, error: 'Database unavailable' });
    }
  });
}
