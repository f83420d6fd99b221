import { createReadStream } from 'node:fs';
import type { FastifyPluginCallback } from 'fastify';
import { BACKUP_DOWNLOAD_PATH } from '../../shared/schemas/admin-settings';
import { isAdmin } from '../auth/admin';
import { readSession } from '../auth/cookies';
import type { StoreBackups } from '../backup/schedule';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { ADMIN_REQUIRED } from '../trpc/init';

// GET /api/admin/backups/<name>: Download in Admin → Settings → Backups, for admins only. Only a
// name the backups folder lists is served, so no other path can be asked for.

export interface BackupRouteOptions {
  config: Config;
  db: Db;
  backups: StoreBackups | null;
}

export const backupRoutes: FastifyPluginCallback<BackupRouteOptions> = (app, { config, db, backups }, done) => {
  app.get<{ Params: { name: string } }>(`${BACKUP_DOWNLOAD_PATH}/:name`, async (req, reply) => {
    const session = await readSession(config, db, req, reply);
    if (!session) return reply.code(401).send({ error: 'Not authenticated' });
    if (!(await isAdmin(db, session.user.id))) return reply.code(403).send({ error: ADMIN_REQUIRED });
    const file = await backups?.fileOf(req.params.name);
    if (!file) return reply.code(404).send({ error: 'Backup not found' });
    return reply
      .type('application/gzip')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="${req.params.name}"`)
      .send(createReadStream(file));
  });
  done();
};
