import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, PGLITE_EXTENSIONS } from '../../src/server/db/database';
import { migrateToLatest } from '../../src/server/db/migrate';

// Migrates one template database per run; each test file then gets its own copy of it
// (PGlite: a dump loaded into memory; PostgreSQL: CREATE DATABASE ... TEMPLATE).

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `threadline_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await migrateToLatest(handle.db);
    await handle.close();
    project.provide('postgresTemplate', name);
    project.provide('pgliteTemplatePath', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-tpl-'));
  const pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
  const handle = await openDatabase({ pglite });
  await migrateToLatest(handle.db);
  const dump = await pglite.dumpDataDir('none');
  const templatePath = path.join(dir, 'template.tar');
  fs.writeFileSync(templatePath, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplatePath', templatePath);
  project.provide('postgresTemplate', '');
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
