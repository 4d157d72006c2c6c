import { Anchor, Badge, Button, Group, Loader, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconSelector from '@tabler/icons-react/dist/esm/icons/IconSelector.mjs';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type OnChangeFn,
  type Row,
  type SortingFn,
  type SortingState,
} from '@tanstack/react-table';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { paths } from '../../../app/paths';
import { absoluteTime, relativeTime } from '../../../ui/relative-time';
import { serverSortable, vehicleTypeKey, type UnitColumn } from '../unit-list';
import { bulkSelectColumn, type BulkSelection } from './bulk-select-column';

/** A row's height before it is measured (one line of text; badges that wrap make it taller). */
const ROW_ESTIMATE = 49;

interface UnitsTableProps {
  /** The units loaded so far, in the server's order for the search. */
  units: readonly UnitListItem[];
  /** Whether every unit of the search is loaded: then every column sorts in the browser. */
  complete: boolean;
  /** Loads the next page (more rows are near the end of the view, or the button was pressed). */
  onLoadMore: () => void;
  loadingMore: boolean;
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

/**
 * The units table (TanStack Table for the cells, TanStack Virtual for the rows, Mantine for the
 * markup): only the rows in and near the view are in the page, the others stand as the height of
 * one spacer row above and one below, and `aria-rowcount`/`aria-rowindex` tell a screen reader
 * where a row is in the whole. More rows load as the end comes near (or with the button below).
 * While pages are still to come only name and IMEI sort (on the server); once every unit of the
 * search is loaded, each column sorts here.
 */
export function UnitsTable({ units, complete, onLoadMore, loadingMore, query, sorting, onSortingChange, onClearSearch, locale, now, selection }: UnitsTableProps) {
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
  const sortable = useMemo(
    () => columns.map((c) => ({ ...c, enableSorting: complete || (serverSortable as readonly string[]).includes(c.id ?? '') })),
    [columns, complete],
  );
  const allColumns = useMemo(() => (selection ? [bulkSelectColumn(selection, t), ...sortable] : sortable), [selection, sortable, t]);

  // Rows keep their values and order until the data changes; a new language must sort by its own
  // alphabet and words (Swedish puts Å, Ä, Ö after Z), so it gets fresh rows.
  const data = useMemo(() => (locale ? units.slice() : []), [units, locale]);

  const table = useReactTable({
    data,
    columns: allColumns,
    state: { sorting },
    meta: { now },
    onSortingChange,
    getRowId: (u) => u.imei,
    // The server has searched and, for name and IMEI, ordered; the browser orders only a complete list.
    manualSorting: !complete,
    // Missing values are ordered by presentFirst; the table's own handling would run first.
    defaultColumn: { sortUndefined: false },
    enableSortingRemoval: false,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  const rows = table.getRowModel().rows;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the rows start in the page, the virtualizer's origin: checked again when the rows or the
  // selection change, since the panels above (first-run notice, bulk tasks) come and go with them.
  useLayoutEffect(() => {
    const body = bodyRef.current;
    const top = body ? Math.round(body.getBoundingClientRect().top + window.scrollY) : 0;
    if (body && top !== scrollMargin) setScrollMargin(top);
  }, [scrollMargin, units, selection]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
    scrollMargin,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  // Ask for the next page while some 20 rows are still below the view.
  useEffect(() => {
    if (!complete && !loadingMore && lastShown >= rows.length - 20) onLoadMore();
  }, [complete, loadingMore, lastShown, rows.length, onLoadMore]);
  const before = items.length ? (items[0]?.start ?? 0) - scrollMargin : 0;
  const after = items.length ? virtualizer.getTotalSize() - ((items.at(-1)?.end ?? 0) - scrollMargin) : 0;
  const matching = rows.length;
  const width = allColumns.length;

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" role="status">
        {query.trim()
          ? t(complete ? 'UnitsMatchingAll' : 'UnitsMatchingShown', { count: matching })
          : t(complete ? 'UnitsTotal' : 'UnitsShown', { count: matching })}
      </Text>
      <div className="units-scroll" role="region" aria-label={t('UnitsTableCaption')} tabIndex={0}>
        <Table
          className={selection ? 'units-table units-table-select' : 'units-table'}
          verticalSpacing="sm"
          aria-label={t('UnitsTableCaption')}
          aria-rowcount={complete ? matching + 1 : -1}
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id} aria-rowindex={1}>
                {group.headers.map((header) => {
                  const label = labelKeys[header.column.id as UnitColumn] as string | undefined;
                  if (!header.column.getCanSort()) {
                    // The selection column, or a column that sorts only once every unit is loaded.
                    return label ? (
                      <Table.Th key={header.id} scope="col">
                        <span className="units-sort">{t(label)}</span>
                      </Table.Th>
                    ) : (
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
                        {t(label ?? header.column.id)}
                        <Icon size={16} stroke={1.8} aria-hidden style={{ flex: 'none' }} />
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody ref={bodyRef}>
            {matching === 0 && !complete ? (
              <Table.Tr>
                <Table.Td colSpan={width}>
                  <Group gap="sm" py="md">
                    <Loader size="xs" type="dots" aria-hidden />
                    <Text>{t('UnitsLoadingMore')}</Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : matching === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={width}>
                  <Group gap="sm" py="md">
                    <Text>{t('UnitsNoMatch', { query: query.trim() })}</Text>
                    <Button variant="light" size="xs" onClick={onClearSearch}>
                      {t('UnitsClearSearch')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : (
              <>
                {before > 0 ? (
                  <tr aria-hidden className="units-spacer" style={{ height: before }}>
                    <td colSpan={width} />
                  </tr>
                ) : null}
                {items.map((item) => {
                  const row = rows[item.index];
                  if (!row) return null;
                  return (
                    <Table.Tr key={row.id} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2}>
                      {row.getVisibleCells().map((cell) => (
                        <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                      ))}
                    </Table.Tr>
                  );
                })}
                {after > 0 ? (
                  <tr aria-hidden className="units-spacer" style={{ height: after }}>
                    <td colSpan={width} />
                  </tr>
                ) : null}
              </>
            )}
          </Table.Tbody>
        </Table>
      </div>
      {complete ? null : (
        <Group gap="sm">
          <Button variant="light" size="xs" onClick={onLoadMore} loading={loadingMore} loaderProps={{ type: 'dots' }}>
            {t('UnitsLoadMore')}
          </Button>
          {loadingMore ? (
            <Group gap={6}>
              <Loader size="xs" type="dots" aria-hidden />
              <Text size="sm" c="dimmed">
                {t('UnitsLoadingMore')}
              </Text>
            </Group>
          ) : null}
        </Group>
      )}
    </Stack>
  );
}
