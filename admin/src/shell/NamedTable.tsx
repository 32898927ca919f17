import type { ReactNode } from 'react';
import { ReadState, type Read } from './ReadState';

/** A row as the table shows it: the link that opens the thing (its label), its name (unique in the list), and its facts. */
export interface NamedRow {
  link: ReactNode;
  name: string;
  facts: ReactNode[];
}

interface Props<Item> {
  /** The table's accessible name. */
  label: string;
  /** The column headers: the label's, the name's, then one per fact. */
  columns: string[];
  read: Read;
  items: Item[];
  /** Said when there is nothing to list. */
  none: string;
  row: (item: Item) => NamedRow;
}

/**
 * A list screen's table of things known by a name (taxonomies, sections, widget areas, collections):
 * each row headed by the link that opens the thing, then the name the site and the API use for it.
 */
export function NamedTable<Item>({ label, columns, read, items, none, row }: Props<Item>) {
  return (
    <>
      <ReadState read={read} />
      {!read.isPending && !read.isError && items.length === 0 && <p>{none}</p>}
      {items.length > 0 && (
        <table className="data-table" aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map(row).map(({ link, name, facts }) => (
              <tr key={name}>
                <th scope="row">{link}</th>
                <td>
                  <code>{name}</code>
                </td>
                {facts.map((fact, index) => (
                  <td key={index}>{fact}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
