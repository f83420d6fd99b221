import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProductionServer, waitForResponse, type ProductionServer } from '../../scripts/production-server';
import { CREDENTIALS_REQUIRED } from '../../src/shared/schemas/auth';

// npm start runs the server built ahead of time (dist/.server, with Kysely and zod bundled into
// it for a faster start), not the sources every other test runs. This starts that build as a
// deployment does: on a new embedded database, then again on the same one. The embedded database
// is all it uses, so the PostgreSQL pass leaves it out.

describe.runIf(!process.env.TEST_DATABASE_URL)('npm start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-production-'));
  let server: ProductionServer | undefined;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates and fills a new store, answers pages and API calls, and starts again on it', { timeout: 180_000 }, async () => {
    server = await startProductionServer(dataDir);
    await waitForResponse(server, '/readyz', 100);

    const shop = await fetch(`${server.origin}/shop`);
    expect(shop.status).toBe(200);
    const html = await shop.text();
    // The demo store's products, rendered on the server with their prices.
    expect(html).toContain('American Muscle Tee');
    expect(html).toMatch(/\$\d+\.\d{2}/);

    // Input checked by the bundled zod reaches the client as the form's message and field error.
    const signUp = await fetch(`${server.origin}/trpc/auth.signUp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'long enough' }),
    });
    expect(signUp.status).toBe(400);
    const { error } = (await signUp.json()) as { error: { message: string; data: { fieldErrors: Record<string, string[]> } } };
    expect(error.message).toBe(CREDENTIALS_REQUIRED);
    expect(error.data.fieldErrors.email).toEqual([CREDENTIALS_REQUIRED]);

    await server.stop();
    server = await startProductionServer(dataDir);
    await waitForResponse(server, '/', 100);
    const product = await fetch(`${server.origin}/product/american-muscle-tee`);
    expect(product.status).toBe(200);
    expect(await product.text()).toMatch(/<h1[^>]*>American Muscle Tee<\/h1>/);
  });
});
