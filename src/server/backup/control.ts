import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupEntry, StoreBackups } from './schedule';

// `npm run backup` while the store runs on the embedded database: only the running process may
// open it, so the command asks that process for the backup through a Unix socket in DATA_DIR.
// Whoever may use the socket may read DATA_DIR anyway, which holds the database itself: the
// socket (readable and writable by its owner only) gives nobody anything more.

export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'threadline.sock');

/** Unix socket paths are short (108 bytes on Linux): a longer DATA_DIR goes without. */
const MAX_SOCKET_PATH = 100;

export interface ControlSocket {
  close(): Promise<void>;
}

/** Listens on the socket for backup requests; null when its path is too long for a socket. */
export async function serveBackupRequests(
  socketPath: string,
  backups: StoreBackups,
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<ControlSocket | null> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    log.warn(`${socketPath} is too long for a socket: npm run backup works only while the store is stopped`);
    return null;
  }
  // Left by a process that did not shut down: this one holds the database, so no other listens there.
  await fs.rm(socketPath, { force: true });
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backups') {
      res.writeHead(404).end();
      return;
    }
    backups.create().then(
      (entry) =>
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ...entry, file: path.join(backups.dir, entry.name) })),
      (error: unknown) => {
        log.error({ err: error }, 'backup asked for by npm run backup failed');
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  await fs.chmod(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Asks the running store for a backup; resolves with the file it wrote. */
export function requestBackup(socketPath: string): Promise<BackupEntry & { file: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: '/backups' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const answer = JSON.parse(body || '{}') as BackupEntry & { file: string; error?: string };
        if (res.statusCode === 201) resolve(answer);
        else reject(new Error(`The running store could not take the backup: ${answer.error ?? `status ${res.statusCode}`}`));
      });
    });
    req.on('error', (error) => reject(new Error(`The running store did not answer on ${socketPath}: ${error.message}`)));
    req.end();
  });
}
