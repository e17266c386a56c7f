// A list as a table, the settings pages' and the share dialog's: named columns, then one empty heading over the
// row's actions (Copy, Revoke, Disable), in the `.list-table` look (app/globals.css). The caller renders the rows.
// Not responsible for loading or empty states (the panel around it says "Loading…" or "None yet.").
import type { ReactNode } from 'react';

export function ListTable({
  columns,
  testId,
  children,
}: {
  /** column headings; falsy entries are left out (a column shown only sometimes) */
  columns: readonly (string | false)[];
  testId: string;
  children: ReactNode;
}) {
  return (
    <table className="list-table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => column && <th key={column}>{column}</th>)}
          <th />
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
