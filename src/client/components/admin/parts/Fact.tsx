import type { ReactNode } from 'react';

// One labelled fact at the top of a detail modal (an order, a member), inside a <dl>:
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
