import { Box, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table from the small breakpoint up; below it each row is a block of label and value, or the
 * row's own `card` where a page lays its rows out more compactly.
 */
export function ResponsiveTable<T>({
  caption,
  rows,
  columns,
  rowKey,
  card,
}: {
  caption: string;
  rows: readonly T[];
  rowKey: (row: T) => string;
  columns: ReadonlyArray<{ label: string; cell: (row: T) => ReactNode }>;
  card?: (row: T) => ReactNode;
}) {
  return (
    <>
      <Box visibleFrom="sm" style={{ overflowX: 'auto' }}>
        <Table verticalSpacing="xs" aria-label={caption}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.label} scope="col">
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((c) => (
                  <Table.Td key={c.label} style={{ overflowWrap: 'anywhere' }}>
                    {c.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      <Stack hiddenFrom="sm" gap="xs" component="ul" aria-label={caption} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => (
          <Paper key={rowKey(row)} component="li" withBorder p="xs" radius="sm">
            {card ? (
              card(row)
            ) : (
            <Stack gap={4}>
              {columns.map((c) => {
                const cell = c.cell(row);
                // A column with nothing for this row (no action to offer) is left out rather than shown as a bare label.
                return cell === null ? null : (
                  <Box key={c.label} style={{ overflowWrap: 'anywhere' }}>
                    <Text span size="xs" c="dimmed" display="block">
                      {c.label}
                    </Text>
                    {cell}
                  </Box>
                );
              })}
            </Stack>
            )}
          </Paper>
        ))}
      </Stack>
    </>
  );
}
