import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The Subject header as written (tests use plain ASCII subjects, so it is not encoded). */
  subject: string | undefined;
  /** The reply code the server gave this message. */
  code: number;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  /** Every message the server was given, accepted or not. */
  received: ReceivedMail[];
  /** Messages the server accepted (replied 250). */
  accepted(): ReceivedMail[];
  /**
   * Decides the reply for each message: 250 accepts; 4xx/5xx reject. Defaults to accepting
   * everything except recipients whose local part starts with "temp-fail" (451) or
   * "perm-fail" (550).
   */
  reply: (mail: { to: string[]; raw: string }) => number;
  /** How long the server takes to answer each message it was given, in ms (a slow mail server); 0 by default. */
  delayMs: number;
  /** The only password a client that logs in may use (any user name): others are refused with 535. */
  password: string;
  /** Forgets what was received and goes back to the default reply and no delay. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_PASSWORD = 'smtp-pass';

const defaultReply = (mail: { to: string[] }): number => {
  if (mail.to.some((address) => address.startsWith('perm-fail'))) return 550;
  if (mail.to.some((address) => address.startsWith('temp-fail'))) return 451;
  return 250;
};

/** A real SMTP server on 127.0.0.1 with a random port, recording what it receives. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state: { reply: TestSmtpServer['reply']; delayMs: number; password: string } = {
    reply: defaultReply,
    delayMs: 0,
    password: DEFAULT_PASSWORD,
  };

  const server = new SMTPServer({
    // A client may send without logging in; one that logs in must know the password.
    authOptional: true,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.password === state.password) callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const answer = () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((address) => address.address);
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const code = state.reply({ to, raw });
        received.push({ from, to, raw, subject: /^Subject: (.*)$/im.exec(raw)?.[1]?.trim(), code });
        if (code < 400) {
          callback(null, 'OK: queued');
          return;
        }
        const error = Object.assign(new Error(code < 500 ? 'Mailbox busy, try again later' : 'No such user here'), {
          responseCode: code,
        });
        callback(error);
      };
      // A slow server takes delayMs to answer once it has the whole message.
      stream.on('end', () => setTimeout(answer, state.delayMs));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    accepted: () => received.filter((mail) => mail.code < 400),
    get reply() {
      return state.reply;
    },
    set reply(fn) {
      state.reply = fn;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms) {
      state.delayMs = ms;
    },
    get password() {
      return state.password;
    },
    set password(value) {
      state.password = value;
    },
    reset() {
      received.length = 0;
      state.reply = defaultReply;
      state.delayMs = 0;
      state.password = DEFAULT_PASSWORD;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
