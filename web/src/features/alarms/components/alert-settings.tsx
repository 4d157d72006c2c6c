/**
 * The language and time zone of the account's alerts (spec sections 2 and 9), below the receivers
 * table: defaults sv and Europe/Stockholm; Asia/Kathmandu only under its parent account (section 6).
 */
import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { alertTimeZonesFor } from '../../../../../shared/schemas/alarms';
import type { Language } from '../../../../../shared/schemas/common';
import { errorMessage } from '../../../app/api-client';
import { alarmKeys, saveAlertConfig, useAlertConfig } from '../api/alarms-api';

const languageKeys: Record<Language, string> = { en: 'AlertLanguageEn', sv: 'AlertLanguageSv', no: 'AlertLanguageNo' };
const zoneKeys: Record<string, string> = {
  'Europe/Stockholm': 'AlertZoneStockholm',
  'Europe/London': 'AlertZoneLondon',
  'Europe/Oslo': 'AlertZoneOslo',
  'Europe/Helsinki': 'AlertZoneHelsinki',
  'Asia/Kathmandu': 'AlertZoneKathmandu',
};

export function AlertSettings({ parentId }: { parentId: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useAlertConfig();
  const [language, setLanguage] = useState<string | null>(null);
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    if (config.data) {
      setLanguage((l) => l ?? config.data.Language);
      setZone((z) => z ?? config.data.TimeZone);
    }
  }, [config.data]);

  const save = useMutation({
    mutationFn: () => saveAlertConfig({ language: (language ?? 'sv') as Language, timezone: zone ?? 'Europe/Stockholm' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: alarmKeys.alertConfig });
      notifications.show({ color: 'green', message: t('AlertSettingsSaved'), closeButtonProps: { 'aria-label': t('AlarmClose') } });
    },
  });

  const zones = alertTimeZonesFor(parentId);
  // A stored zone no longer offered still shows as chosen.
  if (zone && !zones.includes(zone)) zones.push(zone);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="alert-settings-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="alert-settings-title">
          {t('AlertSettingsTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('AlertSettingsIntro')}
        </Text>
        {config.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(config.error)}
          </Alert>
        ) : null}
        {save.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        ) : null}
        <Group align="flex-end" gap="sm">
          <Select
            label={t('AlertLanguage')}
            data={(['sv', 'en', 'no'] as const).map((l) => ({ value: l, label: t(languageKeys[l]) }))}
            value={language}
            onChange={setLanguage}
            allowDeselect={false}
            disabled={!config.data}
            w={200}
          />
          <Select
            label={t('AlertTimeZone')}
            data={zones.map((z) => ({ value: z, label: zoneKeys[z] ? t(zoneKeys[z]) : z }))}
            value={zone}
            onChange={setZone}
            allowDeselect={false}
            disabled={!config.data}
            w={260}
          />
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!config.data || !language || !zone}>
            {t('AlertSettingsSave')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
