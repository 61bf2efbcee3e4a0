// A table of rows with a caption and named columns, scrolling sideways on a narrow screen.
import type { ReactNode } from 'react';
import { Box, Table, Text } from '@mantine/core';

export interface Column<R> {
  label: string;
  cell(row: R): ReactNode;
  numeric?: boolean;
}

export function DataTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  empty = 'Nothing yet.',
}: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey(row: R, i: number): string;
  empty?: string;
}) {
  if (!rows.length) return <Text my="md">{empty}</Text>;
  return (
    // Focusable so a keyboard can scroll a table wider than the screen.
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={caption} my="md">
      <Table striped highlightOnHover miw={560}>
        <Table.Caption c="var(--mantine-color-text)">{caption}</Table.Caption>
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
    </Box>
  );
}

/** A date and time as the reader's locale writes it, or a dash. */
export const when = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString() : '—');
