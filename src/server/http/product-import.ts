import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import {
  MAX_IMPORT_FILE_BYTES,
  PRODUCT_IMPORT_PATH,
  PRODUCT_IMPORT_PREVIEW_PATH,
  type ImportProgress,
  type ImportRefusal,
  type ImportSummary,
} from '../../shared/schemas/admin-products-import';
import { isAdmin } from '../auth/admin';
import { readSession } from '../auth/cookies';
import type { CatalogCache } from '../catalog-cache';
import type { AddressPolicy } from '../catalog/image-fetch';
import { applyImport, ImportRefused, planImport, previewOf, readProductCsv } from '../catalog/product-import';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { ADMIN_REQUIRED } from '../trpc/init';

// Products → Import CSV (docs/adr/0034): the file is the request's body as the browser read it,
// bytes untouched (so a file that is not UTF-8 is recognised, not silently repaired). The preview
// stores nothing; the import checks the file again (the catalog may have changed since) and
// streams its progress as lines of JSON, then the summary. Admins only; the origin check of
// app.ts guards both like every POST.

export interface ProductImportRouteOptions {
  config: Config;
  db: Db;
  /** Emptied as the import commits, as after any admin write (the event every process gets comes a moment later). */
  catalog: CatalogCache;
  /** Where imported images may be fetched from: public addresses only unless a test loosens it. */
  imageAddresses?: AddressPolicy | undefined;
}

const FILE_TOO_LARGE = `The file is larger than ${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB; an import takes at most 5,000 rows.`;

export const productImportRoutes: FastifyPluginCallback<ProductImportRouteOptions> = (
  app: FastifyInstance,
  { config, db, catalog, imageAddresses },
  done,
) => {
  // Registered inside this plugin only: no other route takes a CSV body.
  app.addContentTypeParser(
    ['text/csv', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: MAX_IMPORT_FILE_BYTES },
    (_req, body, done) => done(null, body),
  );
  app.setErrorHandler((error: { statusCode?: number; code?: string }, _req, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.code(413).send({ error: FILE_TOO_LARGE } satisfies ImportRefusal);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ error: 'Upload the file as CSV.' } satisfies ImportRefusal);
    }
    throw error;
  });

  /** The admin's file, read and checked; null when the answer has been sent already. */
  async function readFile(req: FastifyRequest, reply: FastifyReply) {
    const session = await readSession(config, db, req, reply);
    const refuse = async (status: number, error: string) => {
      await reply.code(status).send({ error } satisfies ImportRefusal);
      return null;
    };
    if (!session) return refuse(401, 'Not authenticated');
    if (!(await isAdmin(db, session.user.id))) return refuse(403, ADMIN_REQUIRED);
    if (!Buffer.isBuffer(req.body)) return refuse(400, 'Choose a CSV file to import.');
    try {
      return await readProductCsv(req.body);
    } catch (error) {
      if (!(error instanceof ImportRefused)) throw error;
      return refuse(400, error.message);
    }
  }

  app.post(PRODUCT_IMPORT_PREVIEW_PATH, async (req, reply) => {
    const file = await readFile(req, reply);
    if (!file) return reply;
    reply.header('Cache-Control', 'no-store');
    return previewOf(await planImport(db, file));
  });

  app.post(PRODUCT_IMPORT_PATH, async (req, reply) => {
    const file = await readFile(req, reply);
    if (!file) return reply;
    const plan = await planImport(db, file);
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      // The progress lines go out as they come: a proxy or compressor holding them would freeze the bar.
      'x-accel-buffering': 'no',
    });
    reply.hijack();
    const line = (value: ImportProgress | ImportSummary | ImportRefusal) => reply.raw.write(`${JSON.stringify(value)}\n`);
    try {
      const summary = await applyImport(db, plan, {
        storage: app.storage,
        imageAddresses,
        onProgress: (done, total) => line({ progress: { done, total } }),
      });
      catalog.invalidate();
      line({ summary });
    } catch (error) {
      req.log.error({ err: error }, 'product import failed');
      line({ error: 'The import failed and nothing was changed. Please try again.' });
    }
    reply.raw.end();
  });
  done();
};
