import type { ReactNode } from 'react';

// The pieces every admin table repeats: the header row of column names, and a body row that opens
// its item when clicked anywhere (the Orders and Products tables).
//
//   <TableHead className="bg-stone-50" cellClass={headCell} columns={['Order', { label: 'Total', className: 'text-right' }]} />
//   <ClickableRow testId="order-row" onClick={() => open(order.id)}>…cells…</ClickableRow>

/** A column's name, or its name with classes added to the table's head cell classes (e.g. `text-right`). */
export type Column = string | { label: ReactNode; className: string };

export function TableHead({ columns, cellClass, className }: { columns: Column[]; cellClass: string; className: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column, index) =>
          typeof column === 'string' ? (
            <th key={index} scope="col" className={cellClass}>
              {column}
            </th>
          ) : (
            <th key={index} scope="col" className={`${cellClass} ${column.className}`}>
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

/** A body row that opens its item; its cells still need a real button or link for the keyboard. */
export function ClickableRow({ testId, onClick, children }: { testId: string; onClick: () => void; children: ReactNode }) {
  return (
    <tr data-testid={testId} className="cursor-pointer transition hover:bg-stone-50" onClick={onClick}>
      {children}
    </tr>
  );
}
