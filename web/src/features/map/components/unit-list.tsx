/**
 * The units beside the map, and the map's accessible alternative: searchable by name, registration
 * number and IMEI, each row a button (click or Enter) that selects the unit and flies to it. A fleet
 * of thousands lists its first hundred at a time; the search finds the rest.
 */
import { Button, CloseButton, Stack, Text, TextInput, Title } from '@mantine/core';
import IconKey from '@tabler/icons-react/dist/esm/icons/IconKey.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { currentLanguage, htmlLang } from '../../../i18n/i18n';
import { searchUnits } from '../unit-search';
import type { UnitStore } from '../unit-store';
import { useMapFormat, type MapFormat } from '../use-map-format';
import { UnitAvatar } from './unit-avatar';

/** Rows rendered at once; "Show more" adds as many again. */
export const LIST_PAGE = 100;

interface UnitListProps {
  store: UnitStore;
  /** The set of units to sort and search (store.roster()); their current states come from the store. */
  roster: readonly RealtimeUnit[];
  query: string;
  onQueryChange(query: string): void;
  onSelect(imei: string): void;
  now: number;
}

/** The same element every time: React skips it when a row renders again. */
const KEY_ICON = <IconKey size={14} stroke={2} aria-hidden />;

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
const UnitRow = memo(function UnitRow({ unit, now, format, onSelect }: { unit: RealtimeUnit; now: number; format: MapFormat; onSelect(imei: string): void }) {
  const { t } = useTranslation();
  const state = unit.state;
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
                {state.ignition !== null ? (
                  <span role="img" aria-label={state.ignition ? t('MapIgnitionOn') : t('MapIgnitionOff')} className={state.ignition ? 'rt-ignition-on' : 'rt-ignition-off'}>
                    {KEY_ICON}
                  </span>
                ) : null}
                {format.speed(state.speed)}
              </span>
              <LastSeen iso={state.lastSeen} now={now} format={format} />
            </>
          ) : (
            <span className="rt-unit-meta">{t('MapNoPosition')}</span>
          )}
        </span>
      </button>
    </li>
  );
});

export function UnitList({ store, roster, query, onQueryChange, onSelect, now }: UnitListProps) {
  const { t } = useTranslation();
  const format = useMapFormat();
  const locale = htmlLang(currentLanguage());
  const [limit, setLimit] = useState({ query, rows: LIST_PAGE });
  // A new search starts from the first page again.
  if (limit.query !== query) setLimit({ query, rows: LIST_PAGE });

  // Names and registration numbers change only with a new answer, so sorting and searching do too.
  const sorted = useMemo(() => {
    const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
    return [...roster].sort((a, b) => collator.compare(a.name, b.name));
  }, [roster, locale]);
  const matching = useMemo(() => searchUnits(sorted, query).map((unit) => unit.imei), [sorted, query]);
  const rows = matching.slice(0, limit.rows).flatMap((imei) => store.get(imei) ?? []);

  const total = sorted.length;
  const searching = query.trim() !== '';
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
      <Text size="sm" c="dimmed" aria-live="polite">
        {searching ? t('MapUnitsMatching', { count: matching.length, total }) : t('MapUnitsTotal', { count: total })}
      </Text>
      {total === 0 ? (
        <Stack gap={4} py="md">
          <Text fw={600}>{t('MapNoUnitsTitle')}</Text>
          <Text size="sm" c="dimmed">
            {t('MapNoUnits')}
          </Text>
        </Stack>
      ) : matching.length === 0 ? (
        <Text size="sm" py="md">
          {t('MapNoMatch', { query: query.trim() })}
        </Text>
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
