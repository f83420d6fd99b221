import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, folderWarnings, loadConfig } from '../../src/server/config';

describe('loadConfig', () => {
  it('gives working defaults on a fresh machine', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      storeName: 'Threadline',
      smtpUrl: undefined,
      emailPollIntervalMs: 5000,
      nodeEnv: 'development',
      isProduction: false,
      initialAdmin: undefined,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.emailFrom).toEqual({ name: 'Threadline', address: config.storeEmail });
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app@db:5432/store',
      DATA_DIR: '/var/lib/threadline',
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://shop.example.com/',
      STORE_NAME: 'Tee Club',
      STORE_EMAIL: 'hello@example.com',
      EMAIL_FROM: 'Tee Club <no-reply@example.com>',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      EMAIL_POLL_INTERVAL_MS: '250',
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'longenough',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://app@db:5432/store',
      dataDir: '/var/lib/threadline',
      isProduction: true,
      publicUrl: 'https://shop.example.com',
      storeName: 'Tee Club',
      storeEmail: 'hello@example.com',
      emailFrom: 'Tee Club <no-reply@example.com>',
      smtpUrl: 'smtps://user:pass@smtp.example.com:465',
      emailPollIntervalMs: 250,
      initialAdmin: { email: 'owner@example.com', password: 'longenough' },
    });
  });

  it.each([
    ['PORT', 'eighty', 'PORT'],
    ['PORT', '70000', 'PORT'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL'],
    ['PUBLIC_URL', 'not a url', 'PUBLIC_URL'],
    ['PUBLIC_URL', 'https://example.com/shop', 'PUBLIC_URL'],
    ['PUBLIC_URL', 'https://example.com/?ref=x', 'PUBLIC_URL'],
    ['PUBLIC_URL', 'https://example.com\\shop', 'PUBLIC_URL'],
    ['PUBLIC_URL', 'https://user:secret@example.com', 'PUBLIC_URL'],
    ['SMTP_URL', 'http://mail', 'SMTP_URL'],
    ['STORE_EMAIL', 'nobody', 'STORE_EMAIL'],
    ['EMAIL_POLL_INTERVAL_MS', '5', 'EMAIL_POLL_INTERVAL_MS'],
    ['NODE_ENV', 'staging', 'NODE_ENV'],
    ['ADMIN_EMAIL', 'owner@example.com', 'ADMIN_PASSWORD'],
  ])('stops with a message naming %s when it is %j', (name, value, named) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${named}: `));
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });
});

describe('TRUST_PROXY', () => {
  it('takes nobody, a number of proxies, or their addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });

  it('refuses true at start-up, saying why, and anything it cannot read', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*true would believe any X-Forwarded-For header/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY.*must be false, a number of proxies/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(ConfigError);
  });
});

describe('folderWarnings', () => {
  const s3 = loadConfig({ S3_BUCKET: 'threadline' }).s3;

  it('warns a store on a PostgreSQL server about emails and files kept in one process folder', () => {
    const warnings = folderWarnings({ smtpUrl: undefined, s3: undefined }, 'postgres');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^SMTP_URL is unset/);
    expect(warnings[1]).toMatch(/^S3_BUCKET is unset/);
    expect(folderWarnings({ smtpUrl: 'smtp://mail.example.com:587', s3 }, 'postgres')).toEqual([]);
  });

  it('says nothing on the embedded database, which one process opens', () => {
    expect(folderWarnings({ smtpUrl: undefined, s3: undefined }, 'pglite')).toEqual([]);
  });
});
