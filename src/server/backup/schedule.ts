import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { startPeriodicTask, type PeriodicTask } from '../periodic';
import type { Clock } from '../subscriptions/dates';
import { backupFileName, backupTakenAt, createBackup, type BackupSource } from './backup';

// The embedded database's own backups (docs/adr/0024): one a day at BACKUP_HOUR into
// DATA_DIR/backups, the newest BACKUP_KEEP kept, listed in Admin → Settings with Download and
// Back up now. A store on a PostgreSQL server is backed up by its operator (npm run backup).

export interface BackupEntry {
  name: string;
  size: number;
  createdAt: string;
}

export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');

export class StoreBackups {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly source: BackupSource,
    readonly dir: string,
    readonly keep: number,
  ) {}

  /** Takes a backup now, after any other in progress (one at a time), then keeps only the newest. */
  create(now = new Date()): Promise<BackupEntry> {
    const run = this.tail.then(async () => {
      const name = backupFileName(now);
      await createBackup(this.source, path.join(this.dir, name), now);
      await this.rotate();
      const { size } = await fs.stat(path.join(this.dir, name));
      return { name, size, createdAt: now.toISOString() };
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The backups in the folder, newest first. */
  async list(): Promise<BackupEntry[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: BackupEntry[] = [];
    for (const name of names) {
      const takenAt = backupTakenAt(name);
      const stat = takenAt && (await fs.stat(path.join(this.dir, name)).catch(() => null));
      if (takenAt && stat?.isFile()) entries.push({ name, size: stat.size, createdAt: takenAt.toISOString() });
    }
    // Names carry the time they were taken at: they sort as the backups do.
    return entries.sort((a, b) => b.name.localeCompare(a.name));
  }

  /** The file of a listed backup, or null for any other name. */
  async fileOf(name: string): Promise<string | null> {
    return (await this.list()).some((entry) => entry.name === name) ? path.join(this.dir, name) : null;
  }

  private async rotate(): Promise<void> {
    for (const old of (await this.list()).slice(this.keep)) await fs.rm(path.join(this.dir, old.name), { force: true });
  }
}

/** Whether a daily backup is due: none taken since the last time the clock passed `hour` (local time). */
export function backupDue(now: Date, hour: number, latest: Date | undefined): boolean {
  const scheduled = new Date(now);
  scheduled.setHours(hour, 0, 0, 0);
  if (scheduled > now) scheduled.setDate(scheduled.getDate() - 1);
  return latest === undefined || latest < scheduled;
}

/** How often the process looks whether the day's backup is due. */
const CHECK_INTERVAL_MS = 10 * 60 * 1000;

/** Looks every 10 minutes, and takes the day's backup once BACKUP_HOUR has come (or at the first look after). */
export function startDailyBackups(
  backups: StoreBackups,
  { hour, clock, log }: { hour: number; clock: Clock; log: Pick<FastifyBaseLogger, 'info' | 'error'> },
  intervalMs = CHECK_INTERVAL_MS,
): PeriodicTask<BackupEntry | null> {
  return startPeriodicTask({
    intervalMs,
    run: async () => {
      const [latest] = await backups.list();
      const now = clock.now();
      return backupDue(now, hour, latest && new Date(latest.createdAt)) ? backups.create(now) : null;
    },
    onResult: (made) => {
      if (made) log.info({ backup: made.name, bytes: made.size }, 'daily backup taken');
    },
    onError: (error) => log.error({ err: error }, 'daily backup failed'),
  });
}
