// A table of rows with a caption and named columns, scrolling sideways on a narrow screen.
import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

export interface Column<R> {
  label: string;
  cell: (row: R) => ReactNode;
  numeric?: boolean;
}

export function DataTable<R>({ caption, columns, rows, rowKey, empty = 'Nothing yet.' }: { caption: string; columns: Column<R>[]; rows: R[]; rowKey: (row: R, i: number) => string; empty?: string }) {
  if (!rows.length) return <Text c="dimmed">{empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.label} ta={c.numeric ? 'right' : undefined} scope="col">
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={rowKey(row, i)}>
              {columns.map((c) => (
                <Table.Td key={c.label} ta={c.numeric ? 'right' : undefined}>
                  {c.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
