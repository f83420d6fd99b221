import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../ui/use-document-title';

// The top of every admin screen: title (the page's h1, also the tab title), optional subtitle,
// and actions on the right (stacked under the title on small screens).
//
//   <PageHeader title="Customers" subtitle="View all registered customers" actions={<button ...>Add</button>} />

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  useDocumentTitle(`${title} · Admin`);
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="font-display text-2xl font-extrabold tracking-tight text-stone-950 sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-stone-600">{subtitle}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
