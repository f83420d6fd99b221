import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';

/** A From address: "Name <address>" as written in EMAIL_FROM, or its parts for nodemailer to quote. */
export type EmailSender = string | { name: string; address: string };

export interface EmailMessage {
  from: EmailSender;
  to: string;
  replyTo?: string | null | undefined;
  subject: string;
  text: string;
  html?: string | null;
}

export interface SendResult {
  messageId: string;
  responseCode: number | null;
  response: string;
}

/**
 * A failed delivery attempt. `permanent`: the server refused this email for good (a 5xx reply to
 * its recipient or its content): retrying cannot help. `serverSide`: the mail server could not be
 * used at all (unreachable, our login or sender address refused, the outbox not writable): not
 * this email's fault, and the same for every email until it is mended.
 */
export class EmailSendError extends Error {
  override name = 'EmailSendError';
  responseCode: number | null;
  permanent: boolean;
  serverSide: boolean;

  constructor(message: string, options: { responseCode?: number | null; permanent?: boolean; serverSide?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.responseCode = options.responseCode ?? null;
    this.permanent = options.permanent ?? false;
    this.serverSide = options.serverSide ?? false;
  }
}

export interface EmailTransport {
  kind: 'smtp' | 'outbox';
  send(message: EmailMessage): Promise<SendResult>;
  close(): Promise<void>;
}

/** SMTP when SMTP_URL is set; otherwise the outbox folder, so a store without a mail server still shows what it sent. */
export function createTransport(config: Config): EmailTransport {
  if (config.smtpUrl) return createSmtpTransport(config.smtpUrl);
  return createOutboxTransport(path.join(config.dataDir, 'outbox'));
}

// nodemailer is loaded by the first email sent, not at start-up: both transports below use it.

// One connection per message (no pool) unless the URL asks for ?pool=true; the processor sends
// one email at a time anyway. Settings in the URL win over these. The timeouts are far below
// nodemailer's defaults (up to 10 minutes), so one stuck server cannot outlive the processor's lease.
const smtpTransporter = async (smtpUrl: string) =>
  (await import('nodemailer')).default.createTransport({
    url: smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });

// Builds the same RFC 822 message SMTP would carry, CRLF line ends included.
const messageComposer = async () =>
  (await import('nodemailer')).default.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

export function createSmtpTransport(smtpUrl: string): EmailTransport {
  let transporter: ReturnType<typeof smtpTransporter> | undefined;
  return {
    kind: 'smtp',
    async send(message) {
      try {
        const info = await (await (transporter ??= smtpTransporter(smtpUrl))).sendMail(toMailOptions(message));
        return { messageId: info.messageId, responseCode: parseResponseCode(info.response), response: info.response };
      } catch (error) {
        throw toSendError(error);
      }
    },
    async close() {
      // One that never got going has nothing to close.
      (await transporter?.catch(() => undefined))?.close();
    },
  };
}

let outboxSequence = 0;

export function createOutboxTransport(dir: string): EmailTransport {
  let composer: ReturnType<typeof messageComposer> | undefined;
  return {
    kind: 'outbox',
    async send(message) {
      let info;
      try {
        info = await (await (composer ??= messageComposer())).sendMail(toMailOptions(message));
      } catch (error) {
        throw toSendError(error);
      }
      if (!Buffer.isBuffer(info.message))
        throw new EmailSendError('The outbox transport did not produce a message buffer', { serverSide: true });
      // Timestamp first so a plain directory listing is in sending order; the sequence keeps
      // the order within one millisecond and the random part keeps names unique across processes.
      outboxSequence = (outboxSequence + 1) % 1_000_000;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${String(outboxSequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(dir, name);
      try {
        await fs.mkdir(dir, { recursive: true });
        // Write then rename, so a reader never sees half a message.
        await fs.writeFile(`${file}.tmp`, info.message);
        await fs.rename(`${file}.tmp`, file);
      } catch (error) {
        throw new EmailSendError(`Could not write to the outbox: ${errorMessage(error)}`, { serverSide: true, cause: error });
      }
      return { messageId: info.messageId, responseCode: 250, response: `250 Written to ${file}` };
    },
    async close() {
      (await composer?.catch(() => undefined))?.close();
    },
  };
}

function toMailOptions(message: EmailMessage) {
  return {
    from: message.from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
  };
}

/** "250 2.0.0 OK: queued as X" -> 250. */
function parseResponseCode(response: string | undefined): number | null {
  const match = /^(\d{3})/.exec(response ?? '');
  return match?.[1] ? Number(match[1]) : null;
}

/** SMTP commands whose reply is about this email: its recipient, its content. */
const MESSAGE_COMMANDS = new Set(['RCPT TO', 'DATA']);

// Nodemailer errors carry the SMTP reply's code as `responseCode`, the command it answered as
// `command` and a kind as `code`. Only a reply about this email says anything about it: a 5xx
// there is for good. So is nodemailer's own refusal of the email before sending it (an invalid
// recipient, an empty or oversized message: EENVELOPE or EMESSAGE without a reply). Any other
// failure (no connection, a timeout, the greeting, our login or our sender refused) is the
// server's or its settings', whatever its code: retried, and not counted against the email.
function toSendError(error: unknown): EmailSendError {
  if (error instanceof EmailSendError) return error;
  const field = (name: string) =>
    typeof error === 'object' && error !== null && name in error ? (error as Record<string, unknown>)[name] : undefined;
  const reply = field('responseCode');
  const responseCode = typeof reply === 'number' ? reply : null;
  const command = field('command');
  const kind = field('code');
  const refusedBeforeSending = responseCode === null && (kind === 'EMESSAGE' || (kind === 'EENVELOPE' && command === 'API'));
  const aboutMessage = refusedBeforeSending || (typeof command === 'string' && MESSAGE_COMMANDS.has(command));
  return new EmailSendError(errorMessage(error), {
    responseCode,
    permanent: refusedBeforeSending || (aboutMessage && responseCode !== null && responseCode >= 500 && responseCode < 600),
    serverSide: !aboutMessage,
    cause: error,
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
