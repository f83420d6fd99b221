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
    if (tap.kind === 'change') replayChoice(tap.target, tap.value);
    else if (tap.kind === 'input') replayTyping(tap.target, tap.value);
    else if (tap.target instanceof HTMLElement) tap.target.click();
  }, Promise.resolve());
}

/**
 * A select's choice. The part of the page it is in may not be hydrated yet (React hydrates in slices
 * after the root, docs/adr/0017): an input event, which no select handles, makes React hydrate it
 * now (a discrete event does), then the choice is set again, as hydration may have put back the
 * server's, and React hears its change.
 */
function replayChoice(select: Element, value: string): void {
  if (!(select instanceof HTMLSelectElement)) return;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.value = value;
  select.dispatchEvent(new Event('change', { bubbles: true }));
}

/**
 * Hydration keeps what was typed in the field but takes it as the value React already knows (its
 * value tracker), so an input event alone would change nothing. The field is set back to React's
 * last value (its default value, which React keeps in step), and an input event with it makes
 * React hydrate the field now if its part of the page is not hydrated yet (a discrete event does),
 * taking that value as known. Then the typed value goes in through the element's native setter,
 * which React's tracker does not see, so React hears it as a keystroke's.
 */
function replayTyping(field: Element, value: string): void {
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
  field.value = field.defaultValue;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
