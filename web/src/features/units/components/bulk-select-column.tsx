/**
 * The units table's selection column for bulk tasks (bulk-tasks.tsx): a checkbox per unit named
 * after it, and one in the header for every unit on the page (indeterminate while some are).
 * Native checkboxes, so Space toggles them and screen readers announce their state.
 */
import { Checkbox } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import type { UnitListItem } from '../../../../../shared/schemas/units';

export interface BulkSelection {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
}

export const BULK_SELECT_COLUMN = 'select';

export function bulkSelectColumn(selection: BulkSelection, t: TFunction): ColumnDef<UnitListItem> {
  const toggle = (imeis: readonly string[], on: boolean) => {
    const next = new Set(selection.selected);
    for (const imei of imeis) {
      if (on) next.add(imei);
      else next.delete(imei);
    }
    selection.onChange(next);
  };
  return {
    id: BULK_SELECT_COLUMN,
    enableSorting: false,
    enableGlobalFilter: false,
    header: ({ table }) => {
      const ids = table.getRowModel().rows.map((r) => r.id);
      const count = ids.filter((id) => selection.selected.has(id)).length;
      return (
        <Checkbox
          aria-label={t('BulkSelectAll')}
          checked={ids.length > 0 && count === ids.length}
          indeterminate={count > 0 && count < ids.length}
          disabled={ids.length === 0}
          onChange={(event) => toggle(ids, event.currentTarget.checked)}
        />
      );
    },
    cell: ({ row }) => (
      <Checkbox
        aria-label={t('BulkSelectUnit', { name: row.original.name })}
        checked={selection.selected.has(row.id)}
        onChange={(event) => toggle([row.id], event.currentTarget.checked)}
      />
    ),
  };
}
