import { useId, type ReactNode } from 'react';

// The parts of a detail modal (an order, a member, a message). Fact: one labelled fact at its top,
// inside a <dl>:
//
//   <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
//     <Fact label="Placed">{formatDateTime(order.created_at)}</Fact>
//   </dl>

export function Fact({
  label,
  valueClass = 'mt-0.5 text-stone-800',
  testId,
  children,
}: {
  label: string;
  valueClass?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt className="text-xs font-medium text-stone-500">{label}</dt>
      <dd className={valueClass} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The small capitals over a part of a detail modal. */
export const detailHeadingClass = 'text-xs font-semibold tracking-wide text-stone-600 uppercase';

/** A titled part of a detail modal: an order's items, a member's shipments. */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className={detailHeadingClass}>
        {title}
      </h3>
      {children}
    </section>
  );
}
