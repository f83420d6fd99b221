// Class names shared by the admin screens, so every back-office page looks like one product and
// like the storefront (stone palette, orange accent; white text sits on accent-700 for contrast).

export const primaryButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-stone-900 px-4 text-sm font-semibold text-white shadow-xs transition hover:bg-stone-700 disabled:cursor-not-allowed disabled:opacity-60';
export const accentButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-accent-700 px-4 text-sm font-semibold text-white shadow-xs transition hover:bg-accent-800 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg border border-stone-300 bg-white px-4 text-sm font-semibold text-stone-800 shadow-xs transition hover:border-stone-400 hover:bg-stone-50 disabled:cursor-not-allowed disabled:opacity-60';
export const dangerButton =
  'inline-flex h-10 items-center justify-center gap-2 rounded-lg bg-red-700 px-4 text-sm font-semibold text-white shadow-xs transition hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60';
/** A square icon-only button; give it an aria-label. */
export const iconButton =
  'inline-flex size-9 items-center justify-center rounded-lg text-stone-600 transition hover:bg-stone-100 hover:text-stone-900 disabled:cursor-not-allowed disabled:opacity-50';
export const textLink = 'rounded-sm font-semibold text-accent-700 underline-offset-4 hover:text-accent-800 hover:underline';

/** A white panel with a border, the admin's basic container. */
export const card = 'rounded-xl border border-stone-200 bg-white shadow-xs';

export const inputBase =
  'block w-full rounded-lg border bg-white px-3 py-2 text-base text-stone-900 shadow-xs transition placeholder:text-stone-400 focus:ring-3 focus:outline-none sm:text-sm disabled:bg-stone-100';
export const inputOk = 'border-stone-300 focus:border-accent-600 focus:ring-accent-600/20';
export const inputError = 'border-red-600 focus:border-red-600 focus:ring-red-600/20';
