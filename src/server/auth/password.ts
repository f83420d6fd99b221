import { TRPCError } from '@trpc/server';
import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with OWASP's minimum profile: 19 MiB, 2 passes, 1 lane.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

// Each hash takes tens of milliseconds of a libuv thread and 19 MiB. A few at a time keep the
// thread pool free for files and DNS; a flood waits its turn, and past a point is refused at
// once rather than queued into timeouts.
const MAX_HASHING_AT_ONCE = 2;
const MAX_WAITING = 100;

export const PASSWORD_CHECKS_BUSY = 'Too many sign-ins at once. Please try again in a moment.';

const load = { running: 0, waiting: 0, completed: 0 };
const queue: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (load.running >= MAX_HASHING_AT_ONCE) {
    if (load.waiting >= MAX_WAITING) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: PASSWORD_CHECKS_BUSY });
    load.waiting++;
    // Woken with the slot of a finished hash, still counted as running.
    await new Promise<void>((resolve) => queue.push(resolve));
    load.waiting--;
  } else {
    load.running++;
  }
  try {
    return await work();
  } finally {
    load.completed++;
    const next = queue.shift();
    if (next) next();
    else load.running--;
  }
}

/** Password work now: hashes running and waiting, and how many have finished since start-up. */
export const passwordHashingLoad = (): Readonly<typeof load> => ({ ...load });

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, options));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inTurn(() => verify(passwordHash, password));
  } catch (error) {
    if (error instanceof TRPCError) throw error;
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so a wrong email cannot be told from a wrong password by timing. */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoyHash, password);
  return false;
}
