import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cardClass } from '../../ui/Card';

// A number with its label: the dashboard cards, contact and email-log stat tiles.
//
//   <StatTile label="Total Orders" value={12} icon={ShoppingCart} />

export function StatTile({ label, value, icon: Icon, testId }: { label: string; value: ReactNode; icon?: LucideIcon; testId?: string }) {
  return (
    <div className={`${cardClass} flex items-center gap-4 p-4 sm:p-5`}>
      {Icon && (
        <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg bg-accent-50 text-accent-700">
          <Icon className="size-5.5" aria-hidden="true" />
        </span>
      )}
      {/* dt/dd: the label names the number for screen readers. */}
      <dl className="min-w-0">
        <dt className="text-sm font-medium text-stone-600">{label}</dt>
        <dd className="font-display mt-0.5 truncate text-2xl font-extrabold tracking-tight text-stone-950" data-testid={testId}>
          {value}
        </dd>
      </dl>
    </div>
  );
}
