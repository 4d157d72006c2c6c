/**
 * The one unit picker of every form that assigns units (geofences, places, users' access,
 * departments and tags, alarm receivers, reports): the server searches as the user types (debounced,
 * functions/units/unit-pages.ts), the options are loaded a page at a time as the list scrolls and
 * only those in view are in the page (TanStack Virtual), and the chosen units are shown as a count
 * and chips, so an account of 50,000 units picks as quickly as one of five.
 *
 * The options are a multi-select listbox (WAI-ARIA): one Tab stop, the arrows, Home and End move the
 * active option (`aria-activedescendant`), Space or Enter toggles it, and each option tells its place
 * (`aria-posinset`, `aria-setsize`: -1 while more pages are to come). "Select all matching" (where a
 * form wants it) reads every page of the search and adds what may be chosen.
 */
import './unit-picker.css';
import { Badge, Button, CloseButton, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries } from '@tanstack/react-query';
import IconCheck from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { fetchAllUnits, fetchUnitPage, useUnitPages } from '../api/units';

/** Chips shown for the chosen units before "+N more". */
const CHIPS = 8;
const OPTION_HEIGHT = 48;

export interface UnitPickerProps {
  /** The group's name (a visible heading of the picker). */
  label: string;
  description?: string | undefined;
  value: readonly string[];
  onChange: (imeis: string[]) => void;
  /** Names of units chosen before any page named them (the edited item's own units). */
  knownNames?: ReadonlyMap<string, string> | undefined;
  /** Why a unit cannot be chosen now (shown as its option's text), or null. A chosen unit can always be removed. */
  unavailable?: ((unit: UnitListItem) => string | null) | undefined;
  /** Chosen units that cannot be removed (no remove button, kept by "Clear"): the server refuses the change. */
  fixed?: ReadonlySet<string> | undefined;
  /** Offers "Select all matching": every unit of the search, read page after page. */
  selectAllMatching?: boolean | undefined;
  /** Shown under the group when nothing is chosen (what an empty choice means). */
  emptyText?: string | undefined;
  error?: string | undefined;
  disabled?: boolean | undefined;
  /** For tests and screenshots. */
  testId?: string | undefined;
}

export function UnitPicker({ label, description, value, onChange, knownNames, unavailable, fixed, selectAllMatching, emptyText, error, disabled, testId }: UnitPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const labelId = `${id}-label`;
  const countId = `${id}-count`;
  const [query, setQuery] = useState('');
  const [searched] = useDebouncedValue(query, 250);
  const pages = useUnitPages(searched);
  const options = useMemo(() => pages.data?.pages.flatMap((p) => p.units) ?? [], [pages.data]);
  const complete = pages.data !== undefined && !pages.hasNextPage;
  const selected = useMemo(() => new Set(value), [value]);
  // Names of chosen units: from the pages seen so far, then from the form.
  const [seen, setSeen] = useState<ReadonlyMap<string, string>>(() => new Map());
  useEffect(() => {
    const missing = options.filter((u) => selected.has(u.imei) && seen.get(u.imei) !== u.name);
    if (missing.length) setSeen((old) => new Map([...old, ...missing.map((u) => [u.imei, u.name] as const)]));
  }, [options, selected, seen]);
  const chips = value.slice(0, CHIPS);
  // A chip whose unit no page has named yet asks the server for it (a search by its IMEI).
  const unnamed = chips.filter((imei) => !seen.has(imei) && !knownNames?.has(imei));
  const looked = useQueries({
    queries: unnamed.map((imei) => ({
      queryKey: ['units', 'name', imei],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchUnitPage({ q: imei, limit: 1, signal }),
      staleTime: 300_000,
    })),
  });
  const lookedUp = new Map(looked.flatMap((r) => r.data?.units.map((u) => [u.imei, u.name] as const) ?? []));
  const nameOf = (imei: string) => seen.get(imei) ?? knownNames?.get(imei) ?? lookedUp.get(imei) ?? imei;

  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: options.length, getScrollElement: () => scrollRef.current, estimateSize: () => OPTION_HEIGHT, overscan: 6 });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  const { fetchNextPage, isFetchingNextPage, hasNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= options.length - 10) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastShown, options.length, fetchNextPage]);
  useEffect(() => setActive(0), [searched]);

  const why = (unit: UnitListItem) => (selected.has(unit.imei) && !fixed?.has(unit.imei) ? null : (unavailable?.(unit) ?? null));
  const removable = (imei: string) => !disabled && !fixed?.has(imei);
  const kept = value.filter((imei) => !removable(imei));
  const toggle = (unit: UnitListItem) => {
    if (disabled) return;
    if (selected.has(unit.imei)) {
      if (removable(unit.imei)) onChange(value.filter((imei) => imei !== unit.imei));
    }
    else if (!why(unit)) {
      setSeen((old) => new Map(old).set(unit.imei, unit.name));
      onChange([...value, unit.imei]);
    }
  };

  const [selectingAll, setSelectingAll] = useState(false);
  const [allFailed, setAllFailed] = useState(false);
  const selectAll = async () => {
    setSelectingAll(true);
    setAllFailed(false);
    try {
      const all = await fetchAllUnits(searched);
      const adding = all.filter((u) => !selected.has(u.imei) && !unavailable?.(u));
      setSeen((old) => new Map([...old, ...adding.map((u) => [u.imei, u.name] as const)]));
      onChange([...value, ...adding.map((u) => u.imei)]);
    } catch {
      setAllFailed(true);
    } finally {
      setSelectingAll(false);
    }
  };

  const move = (to: number) => {
    const next = Math.max(0, Math.min(options.length - 1, to));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? OPTION_HEIGHT * 5) / OPTION_HEIGHT));
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      PageDown: () => move(active + page),
      PageUp: () => move(active - page),
      Home: () => move(0),
      End: () => move(options.length - 1),
      ' ': () => options[active] && toggle(options[active]),
      Enter: () => options[active] && toggle(options[active]),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  const status = pages.isError && !pages.data ? 'failed' : pages.data === undefined || (options.length === 0 && hasNextPage) ? 'loading' : options.length === 0 ? 'none' : 'options';

  return (
    <Stack gap={6} role="group" aria-labelledby={labelId} aria-describedby={countId} className="unit-picker" data-testid={testId}>
      <div>
        <Text id={labelId} fw={500} size="sm">
          {label}
        </Text>
        {description ? (
          <Text size="xs" c="dimmed">
            {description}
          </Text>
        ) : null}
      </div>
      <Group gap={6} wrap="wrap" align="center" className="unit-picker-chips">
        <Text id={countId} size="sm" c={value.length ? undefined : 'dimmed'} aria-live="polite">
          {value.length ? t('UnitPickerSelected', { count: value.length }) : (emptyText ?? t('UnitPickerNoneSelected'))}
        </Text>
        {chips.map((imei) => (
          // A badge with a real button: Mantine's Pill hides its remove button from the keyboard.
          <Badge
            key={imei}
            variant="light"
            color="gray"
            tt="none"
            fw={500}
            size="lg"
            className="unit-picker-chip"
            rightSection={
              !removable(imei) ? null : <CloseButton size="xs" aria-label={t('UnitPickerRemove', { name: nameOf(imei) })} onClick={() => onChange(value.filter((x) => x !== imei))} />
            }
          >
            {nameOf(imei)}
          </Badge>
        ))}
        {value.length > CHIPS ? (
          <Text size="sm" c="dimmed">
            {t('UnitPickerMore', { count: value.length - CHIPS })}
          </Text>
        ) : null}
        {value.length > kept.length && !disabled ? (
          <Button variant="subtle" size="compact-xs" onClick={() => onChange(kept)}>
            {t('UnitPickerClear')}
          </Button>
        ) : null}
      </Group>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          className="unit-picker-search"
          label={t('UnitPickerSearch')}
          placeholder={t('UnitPickerPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={query ? <CloseButton aria-label={t('UnitsClearSearch')} onClick={() => setQuery('')} /> : pages.isFetching ? <Loader size="xs" aria-hidden /> : null}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          size="sm"
        />
        {selectAllMatching && !disabled && options.length > 0 ? (
          <Button variant="light" size="sm" onClick={() => void selectAll()} loading={selectingAll} aria-describedby={selectingAll ? `${id}-all` : undefined}>
            {t('UnitPickerSelectAllMatching')}
          </Button>
        ) : null}
      </Group>
      {selectingAll ? (
        <Text id={`${id}-all`} size="xs" c="dimmed" role="status">
          {t('UnitPickerSelectingAll')}
        </Text>
      ) : null}
      {allFailed ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {t('UnitPickerLoadFailed')}
        </Text>
      ) : null}
      {status === 'options' ? (
        <div
          ref={scrollRef}
          className="unit-picker-options"
          role="listbox"
          aria-multiselectable="true"
          aria-labelledby={labelId}
          aria-activedescendant={options.length ? optionId(Math.min(active, options.length - 1)) : undefined}
          aria-busy={isFetchingNextPage || undefined}
          aria-disabled={disabled || undefined}
          tabIndex={disabled ? -1 : 0}
          onKeyDown={onKeyDown}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const unit = options[item.index];
              if (!unit) return null;
              const on = selected.has(unit.imei);
              const reason = why(unit);
              return (
                <div
                  key={unit.imei}
                  id={optionId(item.index)}
                  role="option"
                  aria-selected={on}
                  aria-disabled={reason ? true : undefined}
                  aria-posinset={item.index + 1}
                  aria-setsize={complete ? options.length : -1}
                  className="unit-picker-option"
                  data-active={item.index === active || undefined}
                  data-disabled={reason ? true : undefined}
                  style={{ transform: `translateY(${item.start}px)`, height: item.size }}
                  onClick={() => {
                    setActive(item.index);
                    toggle(unit);
                  }}
                >
                  <span className="unit-picker-box" data-checked={on || undefined} aria-hidden>
                    {on ? <IconCheck size={14} stroke={3} /> : null}
                  </span>
                  <span className="unit-picker-text">
                    <span className="unit-picker-name">{unit.name}</span>
                    <span className="unit-picker-detail">{reason ?? [unit.registrationNumber, unit.imei].filter(Boolean).join(' · ')}</span>
                  </span>
                </div>
              );
            })}
          </div>
        </div>
      ) : (
        <div className="unit-picker-options unit-picker-message">
          {status === 'loading' ? (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm" c="dimmed">
                {t('UnitsLoadingMore')}
              </Text>
            </Group>
          ) : status === 'failed' ? (
            <Group gap="xs">
              <Text size="sm" c="var(--mantine-color-error)" role="alert">
                {t('UnitPickerLoadFailed')}
              </Text>
              <Button variant="default" size="compact-xs" onClick={() => void pages.refetch()}>
                {t('UnitPickerRetry')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {searched.trim() ? t('UnitPickerNoMatch') : t('UnitPickerEmpty')}
            </Text>
          )}
        </div>
      )}
      {error ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
