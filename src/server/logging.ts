import { createRequire } from 'node:module';

/**
 * Where pino writes: readable lines through pino-pretty when the log goes to a terminal (`npm start`
 * in a shell), JSON lines otherwise (a container, a file, a log collector). pino-pretty is a
 * development dependency: an install without those logs JSON to a terminal too.
 */
export function logTransport(toTerminal = process.stdout.isTTY === true) {
  if (!toTerminal) return undefined;
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname,reqId' } };
}
