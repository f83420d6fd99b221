import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProductionServer, waitForResponse } from '../scripts/production-server';

// Start-up on an existing embedded database: `npm start` (production, built) launched again on
// the data folder a first start created and seeded, timed from launch to the first 200 for `/`.

const LAUNCHES = 3;

/** The launch times in milliseconds, fastest first. */
export async function measureStartup(): Promise<number[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-startup-'));
  try {
    const first = await startProductionServer(dataDir);
    try {
      await waitForResponse(first, '/', 100);
    } finally {
      await first.stop();
    }
    const times: number[] = [];
    for (let launch = 0; launch < LAUNCHES; launch++) {
      const started = performance.now();
      const server = await startProductionServer(dataDir);
      try {
        await waitForResponse(server, '/', 10, 60_000);
        times.push(performance.now() - started);
      } finally {
        await server.stop();
      }
    }
    return times.sort((a, b) => a - b);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
