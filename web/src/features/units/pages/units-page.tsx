/**
 * The units list (/user/edit-terminal-list, spec sections 2 and 3): every unit the user may see,
 * searched on the server as the user types (debounced) and loaded a page at a time as the list is
 * scrolled (components/units-table.tsx keeps only the visible rows in the page). The search and the
 * sort order live in the address (`?q=`, `?sort=`), so coming back from a unit finds the list as it
 * was left.
 */
import '../units.css';
import { CloseButton, Stack, TextInput } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconTruck from '@tabler/icons-react/dist/esm/icons/IconTruck.mjs';
import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { LoadFailed } from '../../../ui/load-failed';
import { PageLoader } from '../../../ui/page-loader';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { useDebouncedValue } from '@mantine/hooks';
import { useUnitPages } from '../api/units';
import { BulkTasks } from '../components/bulk-tasks';
import type { BulkSelection } from '../components/bulk-select-column';
import { UnitsTable } from '../components/units-table';
import { formatSort, parseSort, serverSort } from '../unit-list';
import { FirstRunPanel, useFirstRunNotice } from '../../unit-lock/components/first-run-panel';

/** How often relative times ("2 minutes ago") are brought up to date. */
const CLOCK_TICK_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

export function UnitsPage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const now = useNow(CLOCK_TICK_MS);
  const [params, setParams] = useSearchParams();
  // The field is local state (the address is updated behind it), so typing never waits for navigation.
  const [query, setQuery] = useState(() => params.get('q') ?? '');
  const [sorting, setSorting] = useState<SortingState>(() => parseSort(params.get('sort')));
  // The server is asked once typing pauses.
  const [searched] = useDebouncedValue(query, 250);
  const pages = useUnitPages(searched, serverSort(sorting));
  const units = useMemo(() => pages.data?.pages.flatMap((p) => p.units) ?? [], [pages.data]);
  const complete = pages.data !== undefined && !pages.hasNextPage;
  const { fetchNextPage, isFetchingNextPage } = pages;
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, isFetchingNextPage]);
  // Units chosen for bulk tasks (components/bulk-tasks.tsx), kept with their rows across searches.
  const [chosen, setChosen] = useState<ReadonlyMap<string, UnitListItem>>(() => new Map());
  const selected = useMemo(() => new Set(chosen.keys()), [chosen]);
  const selection = useMemo(
    (): BulkSelection => ({
      selected,
      onChange: (next) => {
        const byImei = new Map(units.map((u) => [u.imei, u]));
        setChosen(new Map([...next].flatMap((imei) => {
          const unit = byImei.get(imei) ?? chosen.get(imei);
          return unit ? [[imei, unit] as const] : [];
        })));
      },
    }),
    [selected, units, chosen],
  );
  const firstRun = useFirstRunNotice(units.filter((u) => u.lastSeen === null && u.lockedBy === undefined));

  const remember = (name: 'q' | 'sort', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const changeQuery = (value: string) => {
    setQuery(value);
    remember('q', value.trim() ? value : null);
  };

  const changeSorting: OnChangeFn<SortingState> = (updater) => {
    const next = typeof updater === 'function' ? updater(sorting) : updater;
    setSorting(next);
    remember('sort', formatSort(next));
  };

  // A failed background refresh keeps the list it has; only a first load that fails shows the error.
  if (pages.data === undefined) {
    if (!pages.isError) return <PageLoader />;
    return <LoadFailed title={t('UnitsLoadFailed')} error={pages.error} onRetry={() => void pages.refetch()} retrying={pages.isFetching} />;
  }
  if (units.length === 0 && complete && !searched.trim() && !query.trim()) {
    return (
      <MessageState icon={<IconTruck size={30} stroke={1.6} />} title={t('UnitsEmptyTitle')}>
        {t('UnitsEmpty')}
      </MessageState>
    );
  }

  return (
    <Stack gap="md">
      {/* Units whose tracker has not reported yet: what to do next (not for one locked by someone else). */}
      <FirstRunPanel units={firstRun.units} onHide={firstRun.hide} />
      <TextInput
        label={t('UnitsSearchLabel')}
        placeholder={t('UnitsSearchPlaceholder')}
        value={query}
        onChange={(event) => changeQuery(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={query ? <CloseButton aria-label={t('UnitsClearSearch')} onClick={() => changeQuery('')} /> : null}
        maw={480}
        autoComplete="off"
        spellCheck={false}
      />
      <BulkTasks units={[...chosen.values()]} selected={selected} onClear={() => setChosen(new Map())} />
      <UnitsTable
        units={units}
        complete={complete}
        onLoadMore={loadMore}
        loadingMore={isFetchingNextPage}
        query={searched}
        sorting={sorting}
        onSortingChange={changeSorting}
        onClearSearch={() => changeQuery('')}
        locale={locale}
        now={now}
        selection={selection}
      />
    </Stack>
  );
}
