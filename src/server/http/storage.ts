import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { STORAGE_CACHE_SECONDS } from '../../shared/constants';
import { STORAGE_UNAVAILABLE } from '../../shared/schemas/admin-uploads';
import { isAdmin } from '../auth/admin';
import { fileLinkSecret, validFileLink } from '../fulfilment/print-files';
import { readSession } from '../auth/cookies';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { hasDisplayCopies } from '../display-copies';
import { BUCKET_PATTERN, fileAccess, KEY_PATTERN, StorageUnavailableError, storageUrl, type Storage } from '../storage/storage';
import { ADMIN_REQUIRED } from '../trpc/init';

// GET /storage/:bucket/:key (ADR 0014): every stored file, from whichever storage holds it. Print
// files, and mockups at print resolution once shoppers have their display copies (fileAccess, ADR
// 0018), go to admins only; a public file may be redirected to a CDN.

export interface StorageRouteOptions {
  config: Config;
  db: Db;
  storage: Storage;
}

/**
 * Content-Disposition of a stored file: inline (every stored file is an image the pages show:
 * artwork, mockups, templates, category pictures), with its stored name for a "save as". Stored
 * names match KEY_PATTERN; a character that could end the quoted name is replaced all the same.
 */
const storedFileDisposition = (key: string) => `inline; filename="${key.replace(/["\\\r\n]/g, '_')}"`;

export const storageRoutes: FastifyPluginCallback<StorageRouteOptions> = (app: FastifyInstance, { config, db, storage }, done) => {
  app.get<{ Params: { bucket: string; key: string }; Querystring: { expires?: unknown; signature?: unknown } }>(
    '/storage/:bucket/:key',
    async (req, reply) => {
      const { bucket, key } = req.params;
      if (!BUCKET_PATTERN.test(bucket) || !KEY_PATTERN.test(key)) return reply.callNotFound();
      const access = fileAccess(bucket, key);
      const adminsOnly = access === 'admins' || (access === 'admins once copied' && (await hasDisplayCopies(db, storageUrl(bucket, key))));
      // The print-on-demand provider reads print files through a signed, expiring address instead.
      const signedLink =
        adminsOnly &&
        req.query.signature !== undefined &&
        validFileLink(await fileLinkSecret(db), bucket, key, req.query.expires, req.query.signature);
      if (adminsOnly && !signedLink) {
        const session = await readSession(config, db, req, reply);
        if (!session) return reply.code(401).send({ error: 'Not authenticated' });
        if (!(await isAdmin(db, session.user.id))) return reply.code(403).send({ error: ADMIN_REQUIRED });
      }
      // Stored names are never reused, so a file and its address never change. Only what is public
      // for good may sit in a shared cache: a mockup served before its copies exist turns admins-only.
      const cacheControl = `${access === 'public' ? 'public' : 'private'}, max-age=${STORAGE_CACHE_SECONDS}`;
      const external = storage.publicUrl(bucket, key);
      if (external) return reply.header('Cache-Control', cacheControl).redirect(external, 301);

      const etag = `"${bucket}/${key}"`;
      if (req.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).header('Cache-Control', cacheControl).send();
      let file;
      try {
        file = await storage.open(bucket, key);
      } catch (error) {
        if (!(error instanceof StorageUnavailableError)) throw error;
        req.log.warn({ err: error.cause }, 'file storage unavailable');
        return reply.code(503).header('Retry-After', '5').send({ error: STORAGE_UNAVAILABLE });
      }
      if (!file) return reply.callNotFound();
      reply
        .header('Content-Type', file.contentType)
        .header('Cache-Control', cacheControl)
        .header('ETag', etag)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', storedFileDisposition(key));
      if (file.size !== undefined) reply.header('Content-Length', file.size);
      return reply.send(file.body);
    },
  );
  done();
};
