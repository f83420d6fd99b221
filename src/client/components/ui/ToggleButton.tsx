import type { ButtonHTMLAttributes } from 'react';

// A button that stays pressed (aria-pressed): list filters (the shop's categories, the admin's
// status filters) and the contact inbox's status buttons.
//
//   <div role="group" aria-label="Filter users">
//     {FILTERS.map((f) => <ToggleButton key={f} pressed={f === filter} onClick={() => setFilter(f)}>{LABELS[f]}</ToggleButton>)}
//   </div>

interface ToggleButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-pressed'> {
  pressed: boolean;
  /** md for the storefront, sm for the back office. */
  size?: 'sm' | 'md';
  /** Rounded ends; rounded corners otherwise. */
  pill?: boolean;
}

export function ToggleButton({ pressed, size = 'sm', pill = true, className = '', type = 'button', ...rest }: ToggleButtonProps) {
  const sizing = size === 'md' ? 'h-10 px-4' : 'h-9 px-3.5';
  return (
    <button
      {...rest}
      type={type}
      aria-pressed={pressed}
      className={`inline-flex items-center justify-center gap-2 border text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-60 ${sizing} ${
        pill ? 'rounded-full' : 'rounded-lg'
      } ${
        pressed
          ? 'border-stone-900 bg-stone-900 text-white'
          : 'border-stone-300 bg-white text-stone-700 hover:border-stone-400 hover:bg-stone-50'
      } ${className}`}
    />
  );
}
