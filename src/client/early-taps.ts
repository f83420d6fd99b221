import { EARLY_TAPS_QUEUE, type EarlyTap } from '../shared/early-taps';

// The other half of the inline script in every page's head (src/shared/early-taps.ts): once the page
// is hydrated, the taps it held are replayed in the order they came, each on the same control
// (hydration keeps the server's elements), so a tap on Add to Cart before the scripts were ready
// adds to the cart as soon as they are.

declare global {
  interface Window {
    [EARLY_TAPS_QUEUE]?: EarlyTap[];
  }
}

/** The next task: React renders what one tap changed before the next tap reads it, as between a person's taps. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

/** Marks the page hydrated (the inline script stops holding taps), then replays what it held. */
export function hydratedReplayEarlyTaps(): void {
  document.documentElement.dataset.hydrated = '';
  const held = window[EARLY_TAPS_QUEUE]?.splice(0) ?? [];
  void held.reduce(async (previous, tap) => {
    await previous;
    await nextTask();
    tap.target.removeAttribute('aria-busy');
    if (!tap.target.isConnected) return;
    // A select already shows its new value; React hears of it now.
    if (tap.kind === 'change') tap.target.dispatchEvent(new Event('change', { bubbles: true }));
    else if (tap.kind === 'input') replayTyping(tap.target, tap.value);
    else if (tap.target instanceof HTMLElement) tap.target.click();
  }, Promise.resolve());
}

/**
 * Hydration keeps what was typed in the field but takes it as the value React already knows (its
 * value tracker), so an input event alone would change nothing. The field is set back to React's
 * last value (its default value, which React keeps in step) through React's own setter, then to
 * what was typed through the element's native one, so React sees the change as a keystroke's.
 */
function replayTyping(field: Element, value: string): void {
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
  field.value = field.defaultValue;
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
