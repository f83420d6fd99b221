import fs from 'node:fs';
import path from 'node:path';

/** The text of the email with this subject that the store wrote to its outbox folder (no SMTP set), if any. */
export function outboxMail(dataDir: string, subject: string): string | undefined {
  const outbox = path.join(dataDir, 'outbox');
  if (!fs.existsSync(outbox)) return undefined;
  return fs
    .readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
    .find((text) => text.includes(`Subject: ${subject}`));
}
