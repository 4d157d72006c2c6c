/**
 * /administration/safe-return-home (spec sections 2, 4, 5, 8 and 9): the account's units with their
 * safe return home. Search by name or registration number; columns OnOff (saved at once; turning
 * on without a home and a schedule is refused with SafeHomeEnableMsg), name and registration number
 * (sortable), the schedule in words and the home (its address, or Add home). The home and the
 * schedule are edited in modals. The route exists only while the account has the feature.
 */
import { Alert, Button, Group, Paper, Stack, Switch, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import IconChevronDown from '@tabler/icons-react/dist/esm/icons/IconChevronDown.mjs';
import IconChevronUp from '@tabler/icons-react/dist/esm/icons/IconChevronUp.mjs';
import IconHomeShield from '@tabler/icons-react/dist/esm/icons/IconHomeShield.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import IconSelector from '@tabler/icons-react/dist/esm/icons/IconSelector.mjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SafeHomeItem } from '../../../../../shared/schemas/safe-home';
import { errorMessage } from '../../../app/api-client';
import { parseLanguage } from '../../../app/preferences';
import { useSearchQuery } from '../../../app/use-search-query';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useSafeHomes, useToggleSafeHome } from '../api/safe-home-api';
import { HomeModal } from '../components/home-modal';
import { ScheduleModal } from '../components/schedule-modal';
import { matchesSafeHome, nextSafeHomeSort, scheduleSummary, sortSafeHomes, type SafeHomeSort, type SafeHomeSortColumn } from '../safe-home-list';

const sortLabels: Record<SafeHomeSortColumn, string> = { name: 'SafeHomeColName', regnr: 'SafeHomeColRegnr' };

export function SafeHomePage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(parseLanguage(i18n.language) ?? 'en');
  const list = useSafeHomes();
  const toggle = useToggleSafeHome();
  const { query, deferred, changeQuery } = useSearchQuery();
  const [sort, setSort] = useState<SafeHomeSort>({ column: 'name', desc: false });
  const [home, setHome] = useState<SafeHomeItem | null>(null);
  const [schedule, setSchedule] = useState<SafeHomeItem | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const rows = useMemo(() => sortSafeHomes((list.data ?? []).filter((r) => matchesSafeHome(r, deferred)), sort, locale), [list.data, deferred, sort, locale]);
  const done = (key: string) => {
    setHome(null);
    setSchedule(null);
    setNotice({ ok: true, text: t(key) });
  };
  const onToggle = (item: SafeHomeItem, on: boolean) => {
    setNotice(null);
    toggle.mutate({ imei: item.imei, on }, { onError: (error) => setNotice({ ok: false, text: errorMessage(error) }) });
  };

  const summary = (item: SafeHomeItem) => {
    if (item.schedule.length === 0 || item.frequency === null) return null;
    const every = item.frequency === 1 ? t('SafeHomeEveryWeek') : t('SafeHomeEveryNWeeks', { count: item.frequency });
    return `${scheduleSummary(item.schedule, locale)}, ${every}`;
  };

  // Render functions, not components: a component defined here would remount (and lose focus) on every render.
  const onOff = (item: SafeHomeItem) => (
    <Switch
      checked={item.status === 1}
      onChange={(e) => onToggle(item, e.currentTarget.checked)}
      aria-label={t('SafeHomeToggleFor', { name: item.name })}
      disabled={toggle.isPending && toggle.variables?.imei === item.imei}
      data-testid={`safe-home-toggle-${item.imei}`}
    />
  );
  const scheduleCell = (item: SafeHomeItem) => {
    const text = summary(item);
    return (
      <Stack gap={2} align="flex-start">
        {text ? <Text size="sm">{text}</Text> : <Text size="sm" c="dimmed">{t('SafeHomeNoSchedule')}</Text>}
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => setSchedule(item)}
          aria-label={t(text ? 'SafeHomeChangeScheduleFor' : 'SafeHomeSetScheduleFor', { name: item.name })}
        >
          {text ? t('SafeHomeChangeSchedule') : t('SafeHomeSetSchedule')}
        </Button>
      </Stack>
    );
  };
  const homeCell = (item: SafeHomeItem) =>
    item.address ? (
      <Stack gap={2} align="flex-start">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {item.address}
        </Text>
        <Text size="xs" c="dimmed">
          {t('SafeHomeRadiusValue', { radius: item.radius })}
        </Text>
        <Button size="compact-sm" variant="subtle" onClick={() => setHome(item)} aria-label={t('SafeHomeChangeHomeFor', { name: item.name })}>
          {t('SafeHomeChangeHome')}
        </Button>
      </Stack>
    ) : (
      <Button size="xs" variant="light" onClick={() => setHome(item)} aria-label={t('SafeHomeAddHomeFor', { name: item.name })}>
        {t('SafeHomeAddHome')}
      </Button>
    );

  const SortHeader = ({ column }: { column: SafeHomeSortColumn }) => {
    const active = sort.column === column;
    const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
    return (
      <Table.Th scope="col" aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
        <UnstyledButton onClick={() => setSort(nextSafeHomeSort(sort, column))} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700 }}>
          {t(sortLabels[column])}
          <Icon size={16} stroke={1.8} aria-hidden />
        </UnstyledButton>
      </Table.Th>
    );
  };

  return (
    <Stack gap="md" maw={1100}>
      <Text maw={760}>{t('SafeHomeIntro')}</Text>
      <TextInput
        aria-label={t('SafeHomeSearchLabel')}
        placeholder={t('SafeHomeSearchLabel')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={query}
        onChange={(e) => changeQuery(e.currentTarget.value)}
        type="search"
        w={{ base: '100%', sm: 360 }}
      />
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('Cancel')} onClose={() => setNotice(null)} maw={760} data-testid="safe-home-notice">
            {notice.text}
          </Alert>
        ) : null}
      </div>
      {list.isPending ? (
        <PageLoader />
      ) : list.isError ? (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <span>{errorMessage(list.error)}</span>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : list.data.length === 0 ? (
        <MessageState icon={<IconHomeShield size={30} stroke={1.6} />} title={t('SafeHomeNoUnits')} />
      ) : (
        <>
          <Stack gap="sm" hiddenFrom="sm">
            <Group gap={6} role="group" aria-label={t('SafeHomeSortLabel')}>
              {(['name', 'regnr'] as const).map((column) => {
                const active = sort.column === column;
                const Icon = !active ? IconSelector : sort.desc ? IconChevronDown : IconChevronUp;
                return (
                  <Button key={column} size="compact-sm" variant={active ? 'light' : 'default'} rightSection={<Icon size={14} aria-hidden />} onClick={() => setSort(nextSafeHomeSort(sort, column))} aria-pressed={active}>
                    {t(sortLabels[column])}
                  </Button>
                );
              })}
            </Group>
            {rows.length === 0 ? (
              <Text c="dimmed" ta="center" py="md">
                {t('SafeHomeNoMatches')}
              </Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('SafeReturnHome')}>
                {rows.map((item) => (
                  <Paper component="li" key={item.imei} withBorder radius="md" p="sm">
                    <Stack gap={6}>
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <div>
                          <Text fw={700}>{item.name}</Text>
                          {item.RegistrationNumber ? <Text size="sm" c="dimmed">{item.RegistrationNumber}</Text> : null}
                        </div>
                        {onOff(item)}
                      </Group>
                      {scheduleCell(item)}
                      {homeCell(item)}
                    </Stack>
                  </Paper>
                ))}
              </Stack>
            )}
          </Stack>
          <Paper withBorder radius="md" visibleFrom="sm">
            <div role="region" aria-label={t('SafeReturnHome')} tabIndex={0} style={{ overflowX: 'auto' }}>
              <Table verticalSpacing="sm" horizontalSpacing="sm" miw={760} aria-label={t('SafeReturnHome')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('SafeHomeColOnOff')}</Table.Th>
                    <SortHeader column="name" />
                    <SortHeader column="regnr" />
                    <Table.Th scope="col">{t('SafeHomeColSchedule')}</Table.Th>
                    <Table.Th scope="col">{t('SafeHomeColHome')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.length === 0 ? (
                    <Table.Tr>
                      <Table.Td colSpan={5}>
                        <Text c="dimmed" ta="center" py="md">
                          {t('SafeHomeNoMatches')}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    rows.map((item) => (
                      <Table.Tr key={item.imei}>
                        <Table.Td>
                          {onOff(item)}
                        </Table.Td>
                        <Table.Td fw={600}>{item.name}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{item.RegistrationNumber}</Table.Td>
                        <Table.Td>
                          {scheduleCell(item)}
                        </Table.Td>
                        <Table.Td maw={280}>
                          {homeCell(item)}
                        </Table.Td>
                      </Table.Tr>
                    ))
                  )}
                </Table.Tbody>
              </Table>
            </div>
          </Paper>
        </>
      )}
      <HomeModal item={home} onClose={() => setHome(null)} onSaved={done} />
      <ScheduleModal item={schedule} onClose={() => setSchedule(null)} onSaved={done} />
    </Stack>
  );
}
