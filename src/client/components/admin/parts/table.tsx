import type { ReactNode } from 'react';

// The pieces every admin table repeats: the header row of column names, a body row that opens its
// item when clicked anywhere (the Orders and Products tables), and a list of such rows that is a
// table from sm up and one card per row on phones (Orders, Subscribers).
//
//   <TableHead className="bg-stone-50" cellClass={headCell} columns={['Order', { label: 'Total', className: 'text-right' }]} />
//   <ClickableRow testId="order-row" onClick={() => open(order.id)}>…cells…</ClickableRow>
//   <OpenableRows rows={orders} testId="order" columns={[...]} onOpen={open} card={...} opener={...} cells={...} />

/** The admin tables' head and body cells. */
export const headCell = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-stone-600 uppercase';
export const cell = 'px-4 py-3 text-sm';

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

/**
 * Rows that open their item: one card each on phones, the table from sm up. The table's first cell
 * is `opener(row)` on a button (the keyboard's way in; a click anywhere on the row does the same),
 * `cells(row)` the others. Test ids are `{testId}-card` and `{testId}-row`.
 */
export function OpenableRows<Row extends { id: string }>({
  rows,
  testId,
  columns,
  onOpen,
  card,
  opener,
  openerCellClass,
  cells,
}: {
  rows: Row[];
  testId: string;
  columns: Column[];
  onOpen: (id: string) => void;
  card: (row: Row) => ReactNode;
  opener: (row: Row) => ReactNode;
  /** How the first cell's text wraps, e.g. `whitespace-nowrap`. */
  openerCellClass: string;
  cells: (row: Row) => ReactNode;
}) {
  return (
    <>
      <ul className="divide-y divide-stone-100 sm:hidden">
        {rows.map((row) => (
          <li key={row.id}>
            <button
              type="button"
              data-testid={`${testId}-card`}
              className="block w-full px-4 py-3.5 text-left hover:bg-stone-50"
              onClick={() => onOpen(row.id)}
            >
              {card(row)}
            </button>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="min-w-full divide-y divide-stone-200">
          <TableHead className="bg-stone-50" cellClass={headCell} columns={columns} />
          <tbody className="divide-y divide-stone-100">
            {rows.map((row) => (
              <ClickableRow key={row.id} testId={`${testId}-row`} onClick={() => onOpen(row.id)}>
                <td className={`${cell} ${openerCellClass}`}>
                  <button
                    type="button"
                    className="font-semibold text-stone-900 underline-offset-4 hover:underline"
                    onClick={() => onOpen(row.id)}
                  >
                    {opener(row)}
                  </button>
                </td>
                {cells(row)}
              </ClickableRow>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
