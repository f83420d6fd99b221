import type { ReactNode } from 'react';

// A small pill for a state: active/inactive, order and contact statuses, roles.
//
//   <Badge tone="green">Active</Badge>
//   <Badge tone={statusTone[order.status]}>{order.status}</Badge>
//
// Colours pass WCAG AA contrast for their text.

export type BadgeTone = 'green' | 'stone' | 'red' | 'amber' | 'blue' | 'orange' | 'purple';

const TONES: Record<BadgeTone, string> = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  stone: 'bg-stone-100 text-stone-700 ring-stone-500/20',
  red: 'bg-red-50 text-red-800 ring-red-600/20',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  orange: 'bg-accent-50 text-accent-800 ring-accent-600/20',
  purple: 'bg-violet-50 text-violet-800 ring-violet-600/20',
};

/** Status words are capitalised for display; `asWritten` keeps a sentence ("Cancels on Mar 31, 2027") as it is. */
export function Badge({
  tone,
  children,
  testId,
  asWritten = false,
}: {
  tone: BadgeTone;
  children: ReactNode;
  testId?: string;
  asWritten?: boolean;
}) {
  return (
    <span
      data-testid={testId}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${asWritten ? '' : 'capitalize'} ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

/** Active / Inactive, the state of products, categories and plans. */
export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? 'green' : 'stone'}>{active ? 'Active' : 'Inactive'}</Badge>;
}

/** A small round count (cart items, new contact submissions); the link around it says the number in words. */
export function CountBadge({ count, className = 'bg-red-600', testId }: { count: number; className?: string; testId?: string }) {
  return (
    <span
      aria-hidden="true"
      data-testid={testId}
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1.5 text-[11px] leading-none font-bold text-white ${className}`}
    >
      {count > 99 ? '99+' : count}
    </span>
  );
}
