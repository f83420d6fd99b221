import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The real server.ts in a process of its own, as production runs it (with tsx for the TypeScript).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> once it listens. */
  baseUrl: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL unless it has exited; resolves once it has. */
  kill(): Promise<void>;
}

/**
 * Starts server.ts on 127.0.0.1 with a port of its own and `env` over this process's environment
 * (DATABASE_URL removed unless `env` gives one); resolves once it listens.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const processEnv: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' };
  delete processEnv.DATABASE_URL;
  Object.assign(processEnv, env);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: processEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        resolve({
          child,
          baseUrl: match[1]!,
          output: () => output,
          async kill() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server.ts exited with ${code} before listening:\n${output}`)));
  });
}
