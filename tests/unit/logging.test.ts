import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// `npm start` in a terminal prints readable lines; anywhere else (a container, a pipe) JSON lines.
// The terminal is a real pseudo-terminal, made by util-linux's `script`.

const run = promisify(execFile);
const logLine = `${process.execPath} --import tsx tests/support/log-line.ts`;

describe('the log', () => {
  it('is readable in a terminal (pino-pretty) and JSON lines through a pipe', async () => {
    const inTerminal = (await run('script', ['-qec', logLine, '/dev/null'])).stdout;
    expect(inTerminal).toMatch(/\[\d\d:\d\d:\d\d\] .*INFO.*: .*order placed/);
    expect(inTerminal).toContain('orderNumber');
    expect(inTerminal).not.toContain('"msg"');

    const piped = (await run(process.execPath, ['--import', 'tsx', 'tests/support/log-line.ts'])).stdout.trim();
    expect(JSON.parse(piped)).toMatchObject({ level: 30, msg: 'order placed', orderNumber: 'TL-1001' });
  });
});
