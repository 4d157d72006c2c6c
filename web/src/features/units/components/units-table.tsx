import { Anchor, Badge, Button, Group, Pagination, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconSelector from '@tabler/icons-react/dist/esm/icons/IconSelector.mjs';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type Row,
  type SortingFn,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { paths } from '../../../app/paths';
import { absoluteTime, relativeTime } from '../../../ui/relative-time';
import { matchesUnit, vehicleTypeKey, type UnitColumn } from '../unit-list';
import { bulkSelectColumn, type BulkSelection } from './bulk-select-column';

/** Rows per page: a large fleet stays quick to render and to read. */
export const PAGE_SIZE = 50;

interface UnitsTableProps {
  units: readonly UnitListItem[];
  query: string;
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  onClearSearch: () => void;
  locale: string;
  /** The clock "last seen" is relative to; ticks so that the texts stay true. */
  now: number;
  /** Units chosen for bulk tasks (bulk-tasks.tsx): a checkbox column; none without it. */
  selection?: BulkSelection;
}

const labelKeys: Readonly<Record<UnitColumn, string>> = {
  name: 'UnitsColumnName',
  registrationNumber: 'UnitsColumnRegistrationNumber',
  imei: 'UnitsColumnImei',
  vehicleType: 'UnitsColumnVehicleType',
  driver: 'UnitsColumnDriver',
  lastSeen: 'UnitsColumnLastSeen',
  departments: 'UnitsColumnDepartments',
};

/**
 * Missing values (no driver, never seen) sort last in both directions, and in name order among
 * themselves. The table's own `sortUndefined: 'last'` does the first but scrambles the second (it
 * answers "after" for two missing values both ways round), so the comparison knows the direction
 * (the table negates it for a descending sort) and ties fall back on the rows' order, by name.
 */
function presentFirst<T>(compare: (a: T, b: T) => number, desc: boolean): SortingFn<UnitListItem> {
  return (a: Row<UnitListItem>, b: Row<UnitListItem>, id: string) => {
    const x = a.getValue<T | undefined>(id);
    const y = b.getValue<T | undefined>(id);
    if (x === undefined || y === undefined) return x === y ? 0 : (x === undefined) !== desc ? 1 : -1;
    return compare(x, y);
  };
}

function None() {
  const { t } = useTranslation();
  return (
    <Text span c="dimmed" size="sm">
      {t('UnitsNone')}
    </Text>
  );
}

/** The sortable, searchable units table (TanStack Table for the rows, Mantine for the markup). */
export function UnitsTable({ units, query, sorting, onSortingChange, onClearSearch, locale, now, selection }: UnitsTableProps) {
  const { t } = useTranslation();
  const desc = sorting[0]?.desc ?? false;

  const columns = useMemo((): ColumnDef<UnitListItem>[] => {
    const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    const text = presentFirst<string>((a, b) => collator.compare(a, b), desc);
    const number = presentFirst<number>((a, b) => a - b, desc);
    const typeLabel = (type: string) => {
      const key = vehicleTypeKey(type);
      return key ? t(key) : type;
    };
    return [
      {
        id: 'name',
        accessorFn: (u) => u.name,
        sortingFn: text,
        cell: ({ row: { original: u } }) => (
          <Group gap={8} wrap="nowrap" align="flex-start" className="units-name">
            <span className="units-dot" style={{ background: u.color }} aria-hidden />
            <Anchor component={Link} to={`${paths.editTerminal}?${new URLSearchParams({ imei: u.imei }).toString()}`} fw={600}>
              {u.name}
            </Anchor>
          </Group>
        ),
      },
      { id: 'registrationNumber', accessorFn: (u) => u.registrationNumber ?? undefined, sortingFn: text, cell: ({ getValue }) => getValue<string | undefined>() ?? <None /> },
      { id: 'imei', accessorFn: (u) => u.imei, sortingFn: text, cell: ({ getValue }) => <span className="units-nowrap units-imei">{getValue<string>()}</span> },
      {
        id: 'vehicleType',
        // Values are cached per row until the data changes: the label (which follows the language)
        // is made at sorting and rendering time, the value stays the stored type.
        accessorFn: (u) => u.vehicleType,
        sortingFn: (a, b) => collator.compare(typeLabel(a.original.vehicleType), typeLabel(b.original.vehicleType)),
        cell: ({ row: { original: u } }) => typeLabel(u.vehicleType),
      },
      { id: 'driver', accessorFn: (u) => u.driver ?? undefined, sortingFn: text, cell: ({ getValue }) => getValue<string | undefined>() ?? <None /> },
      {
        id: 'lastSeen',
        accessorFn: (u) => (u.lastSeen ? Date.parse(u.lastSeen) : undefined),
        sortingFn: number,
        // The newest first on the first click: what a fleet manager looks for.
        sortDescFirst: true,
        cell: ({ row: { original: u }, table }) => {
          if (!u.lastSeen) return <Text span size="sm">{t('UnitsNeverSeen')}</Text>;
          const clock = (table.options.meta as { now: number } | undefined)?.now ?? Date.now();
          return (
            <time className="units-nowrap" dateTime={u.lastSeen} title={absoluteTime(u.lastSeen, locale)}>
              {relativeTime(u.lastSeen, clock, locale)}
            </time>
          );
        },
      },
      {
        id: 'departments',
        accessorFn: (u) => (u.departments.length ? u.departments.join(', ') : undefined),
        sortingFn: text,
        cell: ({ row: { original: u } }) =>
          u.departments.length ? (
            <Group gap={4}>
              {u.departments.map((d) => (
                <Badge key={d} variant="light" color="gray" tt="none" fw={500} size="md" className="units-dept" title={d}>
                  {d}
                </Badge>
              ))}
            </Group>
          ) : (
            <None />
          ),
      },
    ];
  }, [t, locale, desc]);
  const allColumns = useMemo(() => (selection ? [bulkSelectColumn(selection, t), ...columns] : columns), [selection, columns, t]);

  // Rows keep their values and order until the data changes; a new language must sort by its own
  // alphabet and words (Swedish puts Å, Ä, Ö after Z), so it gets fresh rows.
  const data = useMemo(() => (locale ? units.slice() : []), [units, locale]);

  const table = useReactTable({
    data,
    columns: allColumns,
    state: { sorting, globalFilter: query },
    meta: { now },
    onSortingChange,
    getRowId: (u) => u.imei,
    // One search over the whole unit (words may hit different fields): it runs once per row
    // because only one column takes part in the global filter.
    getColumnCanGlobalFilter: (column) => column.id === 'name',
    globalFilterFn: (row, _columnId, value: string) => matchesUnit(row.original, value, locale),
    // Missing values are ordered by presentFirst; the table's own handling would run first.
    defaultColumn: { sortUndefined: false },
    enableSortingRemoval: false,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: PAGE_SIZE } },
  });

  const matching = table.getFilteredRowModel().rows.length;
  const { pageIndex, pageSize } = table.getState().pagination;
  const pages = table.getPageCount();

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" role="status">
        {query.trim() ? t('UnitsMatching', { count: matching, total: units.length }) : t('UnitsTotal', { count: units.length })}
      </Text>
      <div className="units-scroll" role="region" aria-label={t('UnitsTableCaption')} tabIndex={0}>
        <Table className={selection ? 'units-table units-table-select' : 'units-table'} verticalSpacing="sm" aria-label={t('UnitsTableCaption')}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  if (!header.column.getCanSort()) {
                    return (
                      <Table.Th key={header.id} scope="col" w={44}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                      </Table.Th>
                    );
                  }
                  const sorted = header.column.getIsSorted();
                  const Icon = sorted === 'asc' ? IconChevronUp : sorted === 'desc' ? IconChevronDown : IconSelector;
                  return (
                    <Table.Th key={header.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                      <UnstyledButton className="units-sort" onClick={header.column.getToggleSortingHandler()}>
                        {t(labelKeys[header.column.id as UnitColumn])}
                        <Icon size={16} stroke={1.8} aria-hidden style={{ flex: 'none' }} />
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {matching === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={allColumns.length}>
                  <Group gap="sm" py="md">
                    <Text>{t('UnitsNoMatch', { query: query.trim() })}</Text>
                    <Button variant="light" size="xs" onClick={onClearSearch}>
                      {t('UnitsClearSearch')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <Table.Tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </div>
      {pages > 1 ? (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {t('UnitsPageRange', { from: pageIndex * pageSize + 1, to: Math.min(matching, (pageIndex + 1) * pageSize), count: matching })}
          </Text>
          <nav aria-label={t('UnitsPagination')}>
            <Pagination
              total={pages}
              value={pageIndex + 1}
              onChange={(page) => table.setPageIndex(page - 1)}
              size="sm"
              getItemProps={(page) => ({ 'aria-label': t('UnitsGoToPage', { page }), 'aria-current': page === pageIndex + 1 ? 'page' : undefined })}
              getControlProps={(control) => ({ 'aria-label': t(control === 'previous' ? 'UnitsPreviousPage' : 'UnitsNextPage') })}
            />
          </nav>
        </Group>
      ) : null}
    </Stack>
  );
}
