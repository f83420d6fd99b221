import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../src/server/db/count';
import type { ProcedureMeta } from '../../src/server/trpc/init';
import { appRouter } from '../../src/server/trpc/router';
import { callTrpc, createTestApp, TEST_ORIGIN, type TestApp } from '../support/app';
import { createAdmin, createCustomer } from '../support/factories';

// Every procedure, fed junk by every kind of caller, must answer with a client error, never a 5xx.
// Generated from the router, so new procedures are covered without editing this file.

interface ProcedureDef {
  _def: { type: 'query' | 'mutation' | 'subscription'; meta?: ProcedureMeta };
}
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>)
  .filter(([, procedure]) => procedure._def.type !== 'subscription')
  .map(([path, procedure]) => ({ path, type: procedure._def.type as 'query' | 'mutation' }));

const junkInputs: unknown[] = [
  null,
  42,
  'text',
  [],
  { id: 'not-a-uuid', slug: '', email: 12, password: null },
  { id: '00000000-0000-0000-0000-000000000000', slug: 'x'.repeat(5000), cursor: '%%%', limit: -1, sort: 'sideways' },
  { a: { b: { c: { d: { e: [1, { f: 'deep' }] } } } }, __proto__: { admin: true } },
  { token: '\u0000\uffff', email: 'a@b.c\u0000', name: '<script>', price: 'NaN', category: { $ne: 1 } },
];

let t: TestApp;
const cookies: Record<string, string | undefined> = { anonymous: undefined };

beforeAll(async () => {
  t = await createTestApp();
  await createCustomer(t.db, { email: 'fuzz-customer@example.com', password: 'fuzzpass1' });
  await createAdmin(t.db, { email: 'fuzz-admin@example.com', password: 'fuzzpass1' });
  for (const [role, email] of [
    ['customer', 'fuzz-customer@example.com'],
    ['admin', 'fuzz-admin@example.com'],
  ] as const) {
    const res = await callTrpc(t.app, 'auth.signIn', { input: { email, password: 'fuzzpass1' } });
    cookies[role] = `session=${res.cookies.session}`;
  }
});
afterAll(() => t.close());

describe.each(['anonymous', 'customer', 'admin'])('as %s', (role) => {
  it.each(procedures)('$path never answers 5xx to malformed input', async ({ path, type }) => {
    // Signing out or in would change the caller's session for the next calls.
    if (path === 'auth.signOut') return;
    for (const input of junkInputs) {
      const res = await callTrpc(t.app, path, { type, input, cookie: cookies[role] });
      expect(res.statusCode, `${path} with ${JSON.stringify(input)}`).toBeLessThan(500);
    }
  });
});

describe('request bodies and cookies no procedure expects', () => {
  it('refuses a multipart body before reading it: no procedure takes form data', async () => {
    const boundary = 'X';
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/contact.submit',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: TEST_ORIGIN },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${'x'.repeat(1024 * 1024)}\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode).toBe(415);
    expect(await countRows(t.db.selectFrom('contact_submissions'))).toBe(0);
  });

  it('reads a session cookie that no sign-in could have made as no session', async () => {
    for (const token of ['a%00b.cc', 'UPPER.case', 'no-dot', 'a.b.c', `${'a'.repeat(65)}.b`]) {
      const res = await callTrpc<null>(t.app, 'auth.me', { type: 'query', cookie: `session=${token}` });
      expect([res.statusCode, res.data], token).toEqual([200, null]);
    }
  });
});

describe('values the database refuses as data', () => {
  it('answer 400, not 500: a NUL byte in text, a forged page cursor', async () => {
    const nul = await callTrpc(t.app, 'contact.submit', {
      input: { name: 'A\u0000B', email: 'a@example.com', subject: 'Hi', message: 'Hello' },
    });
    expect(nul.statusCode).toBe(400);
    const slug = await callTrpc(t.app, 'catalog.productBySlug', { type: 'query', input: { slug: 'tee\u0000' } });
    expect(slug.statusCode).toBe(400);
    const search = await callTrpc(t.app, 'admin.products.list', { type: 'query', input: { search: '\u0000' }, cookie: cookies.admin });
    expect(search.statusCode).toBe(400);
    for (const value of ['abc', '1e999999', '2026-13-45 99:99:99+00']) {
      for (const sort of ['newest', 'price-low'] as const) {
        const cursor = Buffer.from(JSON.stringify({ sort, value, id: '00000000-0000-0000-0000-000000000000' })).toString('base64url');
        const page = await callTrpc(t.app, 'catalog.products', { type: 'query', input: { sort, cursor } });
        expect(page.statusCode, `${sort} cursor ${value}`).toBeLessThan(500);
      }
    }
  });
});
