import { randomUUID } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import {
  FILE_TOO_LARGE,
  IMAGE_TOO_MANY_PIXELS,
  IMAGE_UNREADABLE,
  isUploadBucket,
  NOT_AN_IMAGE,
  STORAGE_UNAVAILABLE,
  type UploadResponse,
} from '../../shared/schemas/admin-uploads';
import { isAdmin } from '../auth/admin';
import { readSession } from '../auth/cookies';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { deleteStoredImage, makeDisplayCopies } from '../display-copies';
import { StorageUnavailableError, type Storage } from '../storage/storage';
import { imageProblem } from '../images';
import { ADMIN_REQUIRED } from '../trpc/init';

// POST /api/uploads/:bucket (docs/ARCHITECTURE.md § Files): admins only; PNG, JPEG or WebP judged by the
// bytes, never by the name or declared type, then decoded whole by sharp (at most
// MAX_UPLOAD_PIXELS); at most 50 MB, cut off while streaming; stored under a new random name with
// its display copies; answers the public URL. The origin check of app.ts guards it like every POST.

export interface UploadRouteOptions {
  config: Config;
  db: Db;
}

/** Extension stored for each accepted type, keyed by the type file-type reads from the bytes. */
const ACCEPTED_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error } satisfies UploadResponse);

/**
 * Stores an upload and its display copies before the answer (the URL the admin saves is shown on
 * storefront pages through its copies). Whatever fails on the way removes what was stored.
 */
async function storeWithCopies(storage: Storage, db: Db, bucket: string, key: string, bytes: Buffer, contentType: string) {
  const stored = await storage.put(bucket, key, bytes, contentType);
  try {
    await makeDisplayCopies(db, storage, stored.url);
  } catch (error) {
    await deleteStoredImage(db, storage, stored.url).catch(() => undefined);
    throw error;
  }
  return stored;
}

export const uploadRoutes: FastifyPluginAsync<UploadRouteOptions> = async (app: FastifyInstance, { config, db }) => {
  // Registered inside this plugin only, so no other route accepts multipart bodies.
  await app.register(fastifyMultipart, {
    // One file; a bigger one is truncated at the limit instead of being read whole.
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 },
    throwFileSizeLimit: false,
  });

  app.post<{ Params: { bucket: string } }>('/api/uploads/:bucket', async (req, reply) => {
    const session = await readSession(config, db, req, reply);
    if (!session) return fail(reply, 401, 'Not authenticated');
    if (!(await isAdmin(db, session.user.id))) return fail(reply, 403, ADMIN_REQUIRED);
    if (!isUploadBucket(req.params.bucket)) return fail(reply, 404, 'Unknown upload bucket');
    if (!req.isMultipart()) return fail(reply, 400, NOT_AN_IMAGE);

    let bytes: Buffer;
    try {
      const part = await req.file();
      if (!part) return fail(reply, 400, NOT_AN_IMAGE);
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) return fail(reply, 413, FILE_TOO_LARGE);
      bytes = Buffer.concat(chunks);
    } catch {
      // A cut-off or malformed multipart body is the client's problem, not a server error.
      return fail(reply, 400, NOT_AN_IMAGE);
    }

    // Loaded by the first upload, not at start-up.
    const { fileTypeFromBuffer } = await import('file-type');
    const detected = await fileTypeFromBuffer(bytes);
    const extension = detected ? ACCEPTED_TYPES[detected.mime] : undefined;
    if (!detected || !extension) return fail(reply, 400, NOT_AN_IMAGE);
    // Looking like an image is not enough: a damaged or disguised file would be stored, and every
    // page and mockup render that reads it would fail.
    const problem = await imageProblem(bytes);
    if (problem) return fail(reply, 400, problem === 'too-many-pixels' ? IMAGE_TOO_MANY_PIXELS : IMAGE_UNREADABLE);

    const stored = await storeWithCopies(app.storage, db, req.params.bucket, `${randomUUID()}.${extension}`, bytes, detected.mime).catch(
      (error: unknown) => {
        if (!(error instanceof StorageUnavailableError)) throw error;
        req.log.warn({ err: error.cause }, 'upload failed: file storage unavailable');
        return null;
      },
    );
    if (!stored) return fail(reply, 503, STORAGE_UNAVAILABLE);
    return reply.code(201).send({ url: stored.url } satisfies UploadResponse);
  });
};
