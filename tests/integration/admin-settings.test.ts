import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_BACK_ART_POSITION, DEFAULT_FRONT_ART_POSITION } from '../../src/shared/constants';
import { INVALID_URL } from '../../src/shared/schemas/admin-categories';
import {
  DEFAULT_TEMPLATE_NAME,
  SETTINGS_CHANGED_ELSEWHERE,
  TEMPLATES_REQUIRED,
  TRACKING_URL_NEEDS_NUMBER,
} from '../../src/shared/schemas/admin-settings';
import { callerAs, routerOverHttp, sharedCallers, sharedTestApp, withTestApp } from '../support/app';
import { sharedBeforeAll } from '../support/hooks';
import { trpcFailure } from '../support/async';
import { createAdmin } from '../support/factories';
import { startSmtpServer } from '../support/smtp';

// admin.settings.*: the default mockup templates (update or insert, art positions kept) and the
// test email, sent at once through the configured transport: a real SMTP server, or the outbox.
// Through callers; over HTTP where a test checks the status code or the field errors.

const smtp = sharedBeforeAll(startSmtpServer, (server) => server.close());
const t = sharedTestApp(() => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Threadline Test <test@threadline.example>' }));
const as = sharedCallers(t);

const http = routerOverHttp(t, 'admin.settings', { cookie: () => as.cookies.admin, queries: ['defaultTemplates'] });
const settings = () => as.admin.admin.settings;

const templatesInDb = () => t.db.selectFrom('mockup_templates').selectAll().orderBy('created_at').execute();

describe('default mockup templates', () => {
  beforeEach(async () => {
    await t.db.deleteFrom('mockup_templates').execute();
  });

  it('inserts a default template with the default art positions when there is none', async () => {
    expect(await settings().defaultTemplates()).toBeNull();
    await settings().saveDefaultTemplates({
      front_template_url: '/storage/templates/front.png',
      back_template_url: 'https://cdn.example.com/back.png',
    });
    const rows = await templatesInDb();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: DEFAULT_TEMPLATE_NAME,
      is_default: true,
      front_template_url: '/storage/templates/front.png',
      back_template_url: 'https://cdn.example.com/back.png',
      front_art_position: DEFAULT_FRONT_ART_POSITION,
      back_art_position: DEFAULT_BACK_ART_POSITION,
    });
    expect((await settings().defaultTemplates())?.id).toBe(rows[0]!.id);
  });

  it('updates the existing default in place, keeping its name and art positions, and leaves other templates alone', async () => {
    const front = { x: 40, y: 25, width: 35, height: 35, rotation: 5 };
    await t.db
      .insertInto('mockup_templates')
      .values([
        { name: 'Other', front_template_url: '/storage/templates/o-f.png', back_template_url: '/storage/templates/o-b.png' },
        {
          name: 'Crew Tee',
          front_template_url: '/storage/templates/old-f.png',
          back_template_url: '/storage/templates/old-b.png',
          is_default: true,
          front_art_position: front,
        },
      ])
      .execute();
    const saved = await settings().saveDefaultTemplates({
      front_template_url: '/storage/templates/new-f.png',
      back_template_url: '/storage/templates/new-b.png',
    });
    expect(saved).toMatchObject({
      name: 'Crew Tee',
      front_template_url: '/storage/templates/new-f.png',
      back_template_url: '/storage/templates/new-b.png',
      front_art_position: front,
    });
    const rows = await templatesInDb();
    expect(rows.map((r) => [r.name, r.is_default, r.front_template_url, r.back_template_url])).toEqual([
      ['Other', false, '/storage/templates/o-f.png', '/storage/templates/o-b.png'],
      ['Crew Tee', true, '/storage/templates/new-f.png', '/storage/templates/new-b.png'],
    ]);
  });

  it('never makes two defaults when saves run at once', async () => {
    const saves = Array.from({ length: 8 }, (_, i) =>
      settings().saveDefaultTemplates({
        front_template_url: `/storage/templates/f${i}.png`,
        back_template_url: `/storage/templates/b${i}.png`,
      }),
    );
    expect((await Promise.allSettled(saves)).map((r) => r.status)).toEqual(Array(8).fill('fulfilled'));
    expect(await templatesInDb()).toHaveLength(1);
  });

  it.each([
    [{ front_template_url: '', back_template_url: '/storage/templates/b.png' }, 'front_template_url', TEMPLATES_REQUIRED],
    [{ front_template_url: '/storage/templates/f.png', back_template_url: '  ' }, 'back_template_url', TEMPLATES_REQUIRED],
    [{ front_template_url: '/storage/templates/f.png' }, 'back_template_url', TEMPLATES_REQUIRED],
    [{ front_template_url: 'not a url', back_template_url: '/storage/templates/b.png' }, 'front_template_url', INVALID_URL],
  ])('refuses %j with "%s" and saves nothing', async (input, field, message) => {
    const res = await http('saveDefaultTemplates', input);
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(message);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(await templatesInDb()).toEqual([]);
  });
});

describe('test email', () => {
  beforeEach(() => smtp.reset());

  it('sends at once through the SMTP server, from the configured address, and answers the message id', async () => {
    const res = await settings().sendTestEmail({
      to: 'owner@example.com',
      subject: 'Mail check',
      text: 'Hello from the admin',
    });
    const [mail] = smtp.accepted();
    expect(mail).toMatchObject({ from: 'test@threadline.example', to: ['owner@example.com'], subject: 'Mail check' });
    expect(mail!.raw).toContain('Hello from the admin');
    expect(mail!.raw).toMatch(/^From: Threadline Test <test@threadline.example>/im);
    expect(res.messageId).toBeTruthy();
    expect(mail!.raw).toContain(`Message-ID: ${res.messageId}`);
    // Not through the queue.
    expect(await t.db.selectFrom('email_queue').select('id').where('subject', '=', 'Mail check').execute()).toEqual([]);
  });

  it('reports the server’s refusal (550) as the error and sends nothing', async () => {
    const res = await http('sendTestEmail', { to: 'perm-fail@example.com', subject: 'Mail check', text: 'Hello' });
    expect(res.statusCode).toBe(502);
    expect(res.error?.data.code).toBe('BAD_GATEWAY');
    expect(res.error?.message).toMatch(/550/);
    expect(smtp.accepted()).toEqual([]);
  });

  it.each([
    [{ subject: 'S', text: 'T' }, 'to', 'To is required'],
    [{ to: 'nope', subject: 'S', text: 'T' }, 'to', 'Please enter a valid email address'],
    [{ to: 'a@example.com', subject: '  ', text: 'T' }, 'subject', 'Subject is required'],
    [{ to: 'a@example.com', subject: 'S', text: '' }, 'text', 'Text is required'],
  ])('refuses %j with "%s" and sends nothing', async (input, field, message) => {
    const res = await http('sendTestEmail', input);
    expect(res.statusCode).toBe(400);
    expect(res.error?.message).toBe(message);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(smtp.received).toEqual([]);
  });

  it('writes to the outbox folder when no SMTP server is configured', async () => {
    await withTestApp({}, async (outboxApp) => {
      const admin = callerAs(outboxApp, await createAdmin(outboxApp.db));
      const res = await admin.admin.settings.sendTestEmail({ to: 'owner@example.com', subject: 'Outbox check', text: 'Hi' });
      expect(res.messageId).toBeTruthy();
      const dir = path.join(outboxApp.config.dataDir, 'outbox');
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      expect(fs.readFileSync(path.join(dir, files[0]!), 'utf8')).toContain('Subject: Outbox check');
    });
  });
});

describe('checkout settings', () => {
  const valid = {
    flat_shipping_rate: 4.95,
    free_shipping_threshold: 75,
    tax_rate_percent: 8.25,
    payment_instructions: '  Bank transfer to IBAN XX00 1234  ',
    tracking_url_template: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={number}',
  };
  const stored = () =>
    t.db
      .selectFrom('store_settings')
      .select(['flat_shipping_rate', 'free_shipping_threshold', 'tax_rate_percent', 'payment_instructions', 'tracking_url_template'])
      .executeTakeFirstOrThrow();
  /** The stamp a form opened now would carry. */
  const loadedAt = async () => (await settings().checkout()).updated_at;

  it('starts with free shipping and no tax, saves what the admin enters, and says who takes payments', async () => {
    await t.db
      .updateTable('store_settings')
      .set({ flat_shipping_rate: '0.00', free_shipping_threshold: null, tax_rate_percent: '0.00' })
      .execute();
    const loaded = await settings().checkout();
    expect(loaded).toMatchObject({ flat_shipping_rate: '0.00', tax_rate_percent: '0.00', paymentProvider: 'manual' });

    const saved = await settings().saveCheckout({ ...valid, updatedAt: loaded.updated_at });
    expect(saved).toMatchObject({
      flat_shipping_rate: '4.95',
      free_shipping_threshold: '75.00',
      tax_rate_percent: '8.25',
      payment_instructions: 'Bank transfer to IBAN XX00 1234',
      paymentProvider: 'manual',
    });
    expect(await stored()).toEqual({
      flat_shipping_rate: '4.95',
      free_shipping_threshold: '75.00',
      tax_rate_percent: '8.25',
      payment_instructions: 'Bank transfer to IBAN XX00 1234',
      tracking_url_template: valid.tracking_url_template,
    });
    // No threshold: the flat rate always applies. Saved again from the same form: it carries the stamp the first save returned.
    expect(await settings().saveCheckout({ ...valid, free_shipping_threshold: null, updatedAt: saved.updated_at })).toMatchObject({
      free_shipping_threshold: null,
    });
  });

  it('refuses to save a form opened before the settings were changed elsewhere, keeping that change', async () => {
    const updatedAt = await loadedAt();
    // Another admin (or tab) saves a tax rate while this form is open with the old one.
    await settings().saveCheckout({ ...valid, tax_rate_percent: 5, updatedAt });
    const stale = await http('saveCheckout', { ...valid, tax_rate_percent: 8.25, payment_instructions: 'Mine', updatedAt });
    expect([stale.statusCode, stale.error?.message]).toEqual([409, SETTINGS_CHANGED_ELSEWHERE]);
    expect(await stored()).toMatchObject({ tax_rate_percent: '5.00', payment_instructions: 'Bank transfer to IBAN XX00 1234' });
  });

  it.each([
    ['flat_shipping_rate', { flat_shipping_rate: -1 }, 'Shipping rate must be 0 or more'],
    ['flat_shipping_rate', { flat_shipping_rate: 1.005 }, 'Shipping rate must be in whole cents'],
    ['free_shipping_threshold', { free_shipping_threshold: -5 }, 'Free shipping threshold must be 0 or more'],
    ['tax_rate_percent', { tax_rate_percent: 101 }, 'Tax rate must be at most 100'],
    ['tax_rate_percent', { tax_rate_percent: 7.125 }, 'Tax rate can have at most 2 decimal places'],
    ['payment_instructions', { payment_instructions: 'x'.repeat(2001) }, 'Payment instructions must be at most 2000 characters'],
    ['tracking_url_template', { tracking_url_template: 'https://track.example.com/' }, TRACKING_URL_NEEDS_NUMBER],
    ['tracking_url_template', { tracking_url_template: 'javascript:alert(1)//{number}' }, 'Please enter a valid URL'],
  ])('refuses a bad %s with its message under the field and changes nothing', async (field, change, message) => {
    const before = await stored();
    const res = await http('saveCheckout', { ...valid, ...change, updatedAt: await loadedAt() });
    expect(res.statusCode).toBe(400);
    expect(res.error?.data.fieldErrors?.[field]).toEqual([message]);
    expect(await stored()).toEqual(before);
  });

  it('is for admins only', async () => {
    expect((await trpcFailure(as.customer.admin.settings.saveCheckout({ ...valid, updatedAt: await loadedAt() }))).code).toBe('FORBIDDEN');
    expect((await trpcFailure(as.anonymous.admin.settings.checkout())).code).toBe('UNAUTHORIZED');
  });
});

describe('permission', () => {
  it('refuses customers and anonymous callers', async () => {
    expect((await trpcFailure(as.customer.admin.settings.sendTestEmail({ to: 'a@example.com', subject: 'S', text: 'T' }))).code).toBe(
      'FORBIDDEN',
    );
    const templates = { front_template_url: '/storage/templates/f.png', back_template_url: '/storage/templates/b.png' };
    expect((await trpcFailure(as.anonymous.admin.settings.saveDefaultTemplates(templates))).code).toBe('UNAUTHORIZED');
    expect((await http('defaultTemplates', undefined, as.cookies.customer)).statusCode).toBe(403);
    expect(smtp.received).toEqual([]);
  });
});
