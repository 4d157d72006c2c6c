/**
 * The units beside the map, and the map's accessible alternative: searchable by name, registration
 * number and IMEI, filtered by status (moving, idling, parked, offline: chips with the number of
 * units in each, which are also the legend of the markers' status dots), each row a button (click
 * or Enter) that selects the unit and flies to it. A fleet of thousands lists its first hundred at
 * a time; the search finds the rest. The order and the search keys are kept in a UnitIndex, updated
 * as pages arrive; the query is deferred, so typing stays responsive with 50,000 units.
 */
import { Button, Chip, CloseButton, Stack, Text, TextInput, Title } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { memo, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unitStatuses, type UnitStatus } from '../../../../../shared/unit-status';
import { statusAt } from '../status-cache';
import { currentLanguage, htmlLang } from '../../../i18n/i18n';
import { createUnitIndex } from '../unit-index';
import type { StoredUnit, UnitStore } from '../unit-store';
import { useMapFormat, type MapFormat } from '../use-map-format';
import { STATUS_LABEL_KEYS, StatusDot, StatusIcon } from './status-dot';
import { UnitAvatar } from './unit-avatar';

/** Rows rendered at once; "Show more" adds as many again. */
export const LIST_PAGE = 100;

interface UnitListProps {
  store: UnitStore;
  /** The set of units to sort and search (store.roster()); their current states come from the store. */
  roster: readonly StoredUnit[];
  query: string;
  onQueryChange(query: string): void;
  /** The statuses shown; none: all. */
  statuses: readonly UnitStatus[];
  onStatusesChange(statuses: UnitStatus[]): void;
  onSelect(imei: string): void;
  now: number;
  /** More pages of units are on their way. */
  loading?: boolean;
}

/** "2 minutes ago"; the date and time on hover changes only with the time itself, not with the clock. */
const LastSeen = memo(function LastSeen({ iso, now, format }: { iso: string; now: number; format: MapFormat }) {
  const title = useMemo(() => format.absolute(iso), [format, iso]);
  return (
    <time className="rt-unit-meta" dateTime={iso} title={title}>
      {format.relative(iso, now)}
    </time>
  );
});

/**
 * A row renders again only when its unit changed (the store gives a moved unit a new object) or time
 * passed, and then only its state: a fleet reporting every 10 s changes every row of the page within
 * seconds, and a full page of rows cost 16 to 28 ms of the main thread (bench:map) with a Mantine
 * VisuallyHidden and an icon component of its own in each row.
 */
const UnitRow = memo(function UnitRow({ unit, now, format, onSelect }: { unit: StoredUnit; now: number; format: MapFormat; onSelect(imei: string): void }) {
  const { t } = useTranslation();
  const state = unit.state;
  const status = statusAt(unit, now);
  return (
    <li>
      <button type="button" className="rt-unit-row" onClick={() => onSelect(unit.imei)} data-imei={unit.imei}>
        <UnitAvatar unit={unit} />
        <span className="rt-unit-main">
          <span className="rt-unit-name">{unit.name}</span>
          {unit.registrationNumber ? <span className="rt-unit-meta">{unit.registrationNumber}</span> : null}
        </span>
        <span className="rt-unit-state">
          {state ? (
            <>
              <span className="rt-unit-speed">
                <StatusIcon status={status} />
                {format.speed(state.speed)}
              </span>
              <LastSeen iso={state.lastSeen} now={now} format={format} />
            </>
          ) : (
            <span className="rt-unit-speed rt-unit-meta">
              <StatusIcon status={status} />
              {t('MapNoPosition')}
            </span>
          )}
        </span>
      </button>
    </li>
  );
});

/** One chip per status with its number of units: checked ones are shown, none checked shows all. */
function StatusFilter({ counts, value, onChange }: { counts: Readonly<Record<UnitStatus, number>>; value: readonly UnitStatus[]; onChange(value: UnitStatus[]): void }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('MapStatusFilterLabel')} className="rt-status-filter">
      <Chip.Group multiple value={[...value]} onChange={(next) => onChange(unitStatuses.filter((status) => next.includes(status)))}>
        {unitStatuses.map((status) => (
          <Chip key={status} value={status} size="xs" variant="outline" data-status={status}>
            <span className="rt-chip-label">
              <StatusDot status={status} />
              {t(STATUS_LABEL_KEYS[status])}{' '}
              <span className="rt-chip-count">{counts[status]}</span>
            </span>
          </Chip>
        ))}
      </Chip.Group>
    </div>
  );
}

export function UnitList({ store, roster, query, onQueryChange, statuses, onStatusesChange, onSelect, now, loading = false }: UnitListProps) {
  const { t } = useTranslation();
  const format = useMapFormat();
  const locale = htmlLang(currentLanguage());
  const [limit, setLimit] = useState({ query, rows: LIST_PAGE });
  // A new search starts from the first page again.
  if (limit.query !== query) setLimit({ query, rows: LIST_PAGE });

  // Names and registration numbers change only with a new page, so the order and the keys do too.
  const index = useMemo(() => createUnitIndex(new Intl.Collator(locale, { numeric: true, sensitivity: 'base' }).compare), [locale]);
  index.sync(roster);
  const searched = useDeferredValue(query);
  const found = index.search(searched);
  // Statuses change with every live message and with time: counted afresh on each render (at most
  // once a second), from the units' current states.
  const counts: Record<UnitStatus, number> = { moving: 0, idling: 0, parked: 0, offline: 0 };
  const matching: string[] = [];
  for (const imei of found) {
    const unit = store.get(imei);
    if (!unit) continue;
    const status = statusAt(unit, now);
    counts[status]++;
    if (statuses.length === 0 || statuses.includes(status)) matching.push(imei);
  }
  const rows = matching.slice(0, limit.rows).flatMap((imei) => store.get(imei) ?? []);

  const total = roster.length;
  const searching = query.trim() !== '';
  const filtering = searching || statuses.length > 0;
  return (
    <Stack gap="xs" className="rt-list">
      <Title order={2} size="h4" className="rt-list-title">
        {t('MapUnitsHeading')}
      </Title>
      <TextInput
        type="search"
        aria-label={t('MapSearchLabel')}
        placeholder={t('MapSearchPlaceholder')}
        value={query}
        onChange={(event) => onQueryChange(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={searching ? <CloseButton size="sm" aria-label={t('MapClearSearch')} onClick={() => onQueryChange('')} /> : null}
      />
      {total > 0 ? <StatusFilter counts={counts} value={statuses} onChange={onStatusesChange} /> : null}
      <Text size="sm" c="dimmed" aria-live="polite">
        {filtering ? t('MapUnitsMatching', { count: matching.length, total }) : t('MapUnitsTotal', { count: total })}
        {loading ? ` · ${t('MapUnitsLoadingMore')}` : null}
      </Text>
      {total === 0 ? (
        <Stack gap={4} py="md">
          <Text fw={600}>{t('MapNoUnitsTitle')}</Text>
          <Text size="sm" c="dimmed">
            {t('MapNoUnits')}
          </Text>
        </Stack>
      ) : matching.length === 0 ? (
        <Stack gap={4} align="flex-start" py="md">
          <Text size="sm">{searching ? t('MapNoMatch', { query: query.trim() }) : t('MapNoStatusMatch')}</Text>
          {statuses.length > 0 ? (
            <Button variant="light" size="xs" onClick={() => onStatusesChange([])}>
              {t('MapShowAllStatuses')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <ul className="rt-unit-list" aria-label={t('MapUnitsHeading')}>
          {rows.map((unit) => (
            <UnitRow key={unit.imei} unit={unit} now={now} format={format} onSelect={onSelect} />
          ))}
        </ul>
      )}
      {matching.length > rows.length ? (
        <Stack gap={4} align="flex-start" pb="sm">
          <Text size="sm" c="dimmed">
            {t('MapListLimited', { shown: rows.length })}
          </Text>
          <Button variant="light" size="xs" onClick={() => setLimit({ query, rows: limit.rows + LIST_PAGE })}>
            {t('MapShowMore')}
          </Button>
        </Stack>
      ) : null}
    </Stack>
  );
}
