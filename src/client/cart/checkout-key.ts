import type { CartStorage } from './cart-store';

// One order per cart, whichever tab sends it. The checkout's idempotency key is kept in
// localStorage beside the cart with the lines it was made for: two tabs sending the same cart
// send the same key (the server places one order and both find it), a retry or a double click
// too, and a cart changed since gets a new key (a new order). Placing the order forgets it.

export interface SubmittedLine {
  productId: string;
  colourId?: string;
  size: string;
  quantity: number;
}

/** A random UUID (v4); crypto.randomUUID exists only on HTTPS and localhost, getRandomValues everywhere. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function keptFor(raw: string | null | undefined, lines: string): string | null {
  try {
    const kept = JSON.parse(raw ?? 'null') as { key?: unknown; lines?: unknown } | null;
    return kept?.lines === lines && typeof kept.key === 'string' ? kept.key : null;
  } catch {
    return null;
  }
}

export function createCheckoutKeys(storage: CartStorage | null, storageKey: string) {
  return {
    /** The key to send these lines with: the one kept for the same lines, else a new one, kept. */
    keyFor(lines: readonly SubmittedLine[]): string {
      const fingerprint = JSON.stringify(lines.map((line) => [line.productId, line.colourId ?? null, line.size, line.quantity]));
      const kept = keptFor(storage?.getItem(storageKey), fingerprint);
      if (kept) return kept;
      const key = newIdempotencyKey();
      try {
        storage?.setItem(storageKey, JSON.stringify({ key, lines: fingerprint }));
      } catch {
        // Storage full or refused: this tab still sends one key per submission.
      }
      return key;
    },
    /** The order is placed: the same lines in a new cart are a new order. */
    forget(): void {
      storage?.removeItem(storageKey);
    },
  };
}
