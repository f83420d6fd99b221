import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A production server started as `npm start` starts it (building first when the sources changed),
// for the scripts that measure one: npm run lighthouse and the start-up part of npm run bench.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ProductionServer {
  origin: string;
  process: ChildProcess;
  /** SIGTERM, then resolves once it has exited. */
  stop(): Promise<void>;
}

/** `npm start` on a free port with the embedded database in `dataDir`. */
export async function startProductionServer(dataDir: string): Promise<ProductionServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'start.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    origin,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls `path` until it answers 200; throws when the server exits or `timeoutMs` passes. */
export async function waitForResponse(server: ProductionServer, path: string, pollMs: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) throw new Error(`the server exited with ${server.process.exitCode}`);
    const ok = await fetch(`${server.origin}${path}`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`the server did not answer ${path} within ${timeoutMs / 1000} s`);
}
