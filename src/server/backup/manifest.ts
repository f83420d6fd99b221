import { z } from 'zod';

// The manifest of a backup file (docs/adr/0024): its first entry, saying what the file holds and
// how to check it: every entry's size and SHA-256, and every table's row count and checksum as the
// database had them when it was dumped.

export const MANIFEST_ENTRY = 'manifest.json';
export const FORMAT = 'threadline-backup';
export const FORMAT_VERSION = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

const tableSummary = z.object({
  rows: z.number().int().min(0),
  /** The sum of every row's hash (databaseChecksums), the same whatever order rows are read in. */
  checksum: z.string().regex(/^\d+$/),
  /** The columns the dump wrote, in their order. */
  columns: z.array(z.string()),
});
export type TableSummary = z.infer<typeof tableSummary>;

const storedFiles = z.discriminatedUnion('kind', [
  /** The local storage folder, every file in the archive under files/. */
  z.object({ kind: z.literal('local') }),
  /** Files on S3, which keeps its own versions: what the bucket held, to check it against. */
  z.object({
    kind: z.literal('s3'),
    bucket: z.string(),
    objects: z.array(z.object({ key: z.string(), size: z.number().int().min(0), etag: z.string() })),
  }),
]);
export type StoredFilesSummary = z.infer<typeof storedFiles>;

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  database: z.object({
    /** Where it was taken from: the embedded database or a PostgreSQL server. */
    source: z.enum(['pglite', 'postgres']),
    /**
     * rows: one JSON line per row, a file per table (database/<table>.jsonl), read in one snapshot
     * through the app's own connection. pg_dump: pg_dump's INSERT statements (database/data.sql),
     * taken in the snapshot the checksums were read in.
     */
    method: z.enum(['rows', 'pg_dump']),
    /** The migrations the database had run: a restore builds that schema, loads the rows, then migrates on. */
    migrations: z.array(z.string()).min(1),
    tables: z.record(z.string(), tableSummary),
    /** Sequences and where they stood (the rows method; pg_dump's SQL sets them itself). */
    sequences: z.record(z.string(), z.object({ value: z.string().regex(/^-?\d+$/), called: z.boolean() })),
  }),
  files: storedFiles,
  /** Every other entry of the archive. */
  entries: z.record(z.string(), z.object({ size: z.number().int().min(0), sha256 })),
});
export type Manifest = z.infer<typeof manifestSchema>;
