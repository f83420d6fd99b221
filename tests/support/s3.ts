import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

// A local S3 server (s3rver) in the test process, speaking the S3 API the store uses, with a
// bucket of its own for each start; and the environment that points the app at it.

export interface LocalS3 {
  /** S3_* variables for loadConfig. */
  env: Record<string, string>;
  /** Every object key in the bucket, sorted. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

// s3rver makes the continuation tokens of a listing cut into pages with single DES, which the
// OpenSSL 3 of Node 17+ leaves out: every truncated ListObjectsV2 answered 500. Triple DES (EDE)
// with the same key three times is single DES, so its tokens are the ones s3rver means to make.
const withDes =
  <T>(make: (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null) => T) =>
  (algorithm: string, key: crypto.CipherKey, iv: crypto.BinaryLike | null): T =>
    algorithm === 'des' ? make('des-ede-cbc', Buffer.concat([key as Buffer, key as Buffer]), iv) : make(algorithm, key, iv);
Object.assign(crypto, {
  createCipheriv: withDes(crypto.createCipheriv.bind(crypto)),
  createDecipheriv: withDes(crypto.createDecipheriv.bind(crypto)),
});

export async function startLocalS3(): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-s3-'));
  const bucket = `threadline-${Date.now().toString(36)}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!).sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** S3 settings of a server that is not there: every request fails to connect. */
export async function unreachableS3Env(): Promise<Record<string, string>> {
  const s3 = await startLocalS3();
  await s3.stop();
  return s3.env;
}
