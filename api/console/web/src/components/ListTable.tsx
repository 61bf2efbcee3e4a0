// A list as a table that scrolls sideways on a phone, with a line for "nothing here".
import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

export interface Column<T> {
  label: string;
  cell(row: T): ReactNode;
}

export function ListTable<T>({ rows, columns, rowKey, caption, empty }: { rows: T[]; columns: Column<T>[]; rowKey(row: T): string; caption: string; empty: string }) {
  if (!rows.length) return <Text c="gray.8">{empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover>
        <Table.Caption c="gray.8">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label}>{c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.label}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A date and time as the reader's locale writes it, or a dash. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
