/**
 * Places (/user/places, spec sections 2 and 3): the account's places with their rules, searchable
 * by label and address; a row opens the place in the editor, "New place" opens an empty one. The
 * search lives in the address (`?q=`), so coming back from a place finds the list as it was left.
 */
import '../places.css';
import { Alert, Anchor, Badge, Button, CloseButton, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconMapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSearchQuery } from '../../../app/use-search-query';
import { errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useUnits } from '../../units/api/units';
import { usePlaces } from '../api/place-api';
import { matchesPlace, ruleText } from '../place-form';

export function PlacesPage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const places = usePlaces();
  const units = useUnits();
  const { query, deferred, changeQuery } = useSearchQuery();
  const unitNames = useMemo(() => new Map((units.data ?? []).map((u) => [u.imei, u.name])), [units.data]);
  const metres = useMemo(() => new Intl.NumberFormat(locale, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 }), [locale]);


  const header = (
    <Group justify="space-between" align="center" wrap="wrap" gap="sm">
      <Text c="dimmed" size="sm">
        {t('PlacesIntro')}
      </Text>
      <Button component={Link} to={paths.addEditPlace} leftSection={<IconPlus size={16} aria-hidden />}>
        {t('PlaceNew')}
      </Button>
    </Group>
  );

  if (places.data === undefined) {
    if (!places.isError) return <PageLoader />;
    return (
      <Stack gap="md">
        {header}
        <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={t('PlacesLoadFailed')} maw={640}>
          <Stack gap="sm" align="flex-start">
            <span>{errorMessage(places.error)}</span>
            <Button variant="default" size="xs" onClick={() => void places.refetch()} loading={places.isFetching}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }

  const all = places.data;
  if (all.length === 0) {
    return (
      <Stack gap="md">
        {header}
        <MessageState icon={<IconMapPin size={30} stroke={1.6} />} title={t('PlacesEmptyTitle')}>
          {t('PlacesEmpty')}
        </MessageState>
      </Stack>
    );
  }

  const shown = all.filter((p) => matchesPlace(p, deferred));
  return (
    <Stack gap="md">
      {header}
      <TextInput
        label={t('PlacesSearchLabel')}
        placeholder={t('PlacesSearchPlaceholder')}
        value={query}
        onChange={(event) => changeQuery(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={query ? <CloseButton aria-label={t('PlacesClearSearch')} onClick={() => changeQuery('')} /> : null}
        maw={480}
        autoComplete="off"
        spellCheck={false}
      />
      {shown.length === 0 ? (
        <Text c="dimmed" role="status">
          {t('PlacesNoMatch')}
        </Text>
      ) : (
        <>
        {/* Phones get cards (a table of five columns does not fit 390 px); wider screens the table. */}
        <Stack gap="sm" className="places-cards" component="ul" aria-label={t('PlacesTableCaption', { count: shown.length })}>
          {shown.map((place) => (
            <Paper key={place.id} component="li" withBorder p="sm" radius="md" data-testid="place-card">
              <Stack gap={4}>
                <Anchor component={Link} to={`${paths.addEditPlace}/${encodeURIComponent(place.id)}`} fw={600}>
                  {place.label}
                </Anchor>
                {place.address ? <Text size="sm">{place.address}</Text> : null}
                <Text size="sm">{ruleText(place.rule, all, (key, vars) => t(key, vars ?? {}))}</Text>
                <Group gap={4}>
                  <Badge variant="default" tt="none">
                    {metres.format(place.radius)}
                  </Badge>
                  {place.imeis.map((imei) => (
                    <Badge key={imei} variant="light" color="gray" tt="none">
                      {unitNames.get(imei) ?? imei}
                    </Badge>
                  ))}
                </Group>
              </Stack>
            </Paper>
          ))}
        </Stack>
        <Table.ScrollContainer minWidth={720} className="places-table">
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="places-table">
            <Table.Caption className="places-visually-hidden">{t('PlacesTableCaption', { count: shown.length })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('PlaceColumnLabel')}</Table.Th>
                <Table.Th scope="col">{t('PlaceColumnAddress')}</Table.Th>
                <Table.Th scope="col" className="places-number">
                  {t('PlaceColumnRadius')}
                </Table.Th>
                <Table.Th scope="col">{t('PlaceColumnUnits')}</Table.Th>
                <Table.Th scope="col">{t('PlaceColumnRule')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((place) => (
                <Table.Tr key={place.id} data-testid="place-row">
                  <Table.Td>
                    <Anchor component={Link} to={`${paths.addEditPlace}/${encodeURIComponent(place.id)}`} fw={600}>
                      {place.label}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{place.address || <Text span c="dimmed" size="sm">{t('PlaceNoAddress')}</Text>}</Table.Td>
                  <Table.Td className="places-number">{metres.format(place.radius)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {place.imeis.map((imei) => (
                        <Badge key={imei} variant="light" color="gray" tt="none">
                          {unitNames.get(imei) ?? imei}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{ruleText(place.rule, all, (key, vars) => t(key, vars ?? {}))}</Text>
                    {place.schedule.length ? (
                      <Text size="xs" c="dimmed">
                        {t('PlaceScheduleCount', { count: place.schedule.length })}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
}
