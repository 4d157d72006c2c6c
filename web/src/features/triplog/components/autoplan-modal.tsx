/**
 * Reporting a unit's previous month to Autoplan from the trip log (spec sections 1, 5 and 8): open
 * on days 1 to 4 of the month (the server decides in the account's zone; the browser's day only
 * greys the button out), the figures sent or the refusal's text, and for admins the account's
 * automatic reporting on the 1st.
 */
import { Alert, Button, Group, Loader, Modal, Stack, Switch, Text } from '@mantine/core';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import IconSend from '@tabler/icons-react/dist/esm/icons/IconSend.mjs';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { autoplanWindow, type AutoplanReport } from '../../../../../shared/schemas/autoplan';
import { browserTimeZone, errorMessage } from '../../../app/api-client';
import { useAutoplanSettings, useReportAutoplan, useSaveAutoplanSettings } from '../api/autoplan-api';
import { useTripFormat } from '../format';

interface AutoplanModalProps {
  imei: string;
  unitName: string;
  isAdmin: boolean;
  opened: boolean;
  onClose: () => void;
  /** Said through the page's live region. */
  announce: (text: string, color?: 'green' | 'red') => void;
}

export function AutoplanModal({ opened, onClose, ...props }: AutoplanModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('AutoplanTitle')} centered size="lg" closeButtonProps={{ 'aria-label': t('AutoplanClose') }}>
      {opened ? <AutoplanPanel {...props} /> : null}
    </Modal>
  );
}

function AutoplanPanel({ imei, unitName, isAdmin, announce }: Omit<AutoplanModalProps, 'opened' | 'onClose'>) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const hintId = useId();
  const period = useMemo(() => autoplanWindow(Date.now(), browserTimeZone()), []);
  const monthLabel = useMemo(() => {
    const [y = 1970, m = 1] = period.month.split('-').map(Number);
    return new Intl.DateTimeFormat(format.locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
  }, [period.month, format.locale]);
  const send = useReportAutoplan();

  const submit = () =>
    send.mutate(
      { imei, month: period.month },
      {
        onSuccess: () => announce(t('AutoplanSentTitle', { month: monthLabel })),
        onError: (error) => announce(errorMessage(error), 'red'),
      },
    );

  return (
    <Stack gap="md">
      <Text>{t('AutoplanIntro', { month: monthLabel, unit: unitName })}</Text>
      {period.open ? null : (
        <Text id={hintId} size="sm" c="dimmed">
          {t('AutoplanClosedHint')}
        </Text>
      )}
      <Group>
        <Button
          leftSection={<IconSend size={18} aria-hidden />}
          onClick={submit}
          loading={send.isPending}
          disabled={!period.open || send.isSuccess}
          aria-describedby={period.open ? undefined : hintId}
        >
          {t('AutoplanSend', { month: monthLabel })}
        </Button>
      </Group>
      {send.isSuccess ? <Sent report={send.data} monthLabel={monthLabel} /> : null}
      {send.isError ? (
        <Alert color="red" role="alert" title={t('AutoplanFailedTitle')}>
          {errorMessage(send.error)}
        </Alert>
      ) : null}
      {isAdmin ? <AutomaticSwitch announce={announce} /> : null}
    </Stack>
  );
}

function Sent({ report, monthLabel }: { report: AutoplanReport; monthLabel: string }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const rows: [string, string][] = [
    [t('AutoplanOdometerStart'), format.odometer(report.odometerStart)],
    [t('AutoplanOdometerEnd'), format.odometer(report.odometerEnd)],
    [t('AutoplanTotal'), format.km(report.distanceKm)],
    [t('AutoplanBusiness'), format.km(report.businessKm)],
    [t('AutoplanPrivate'), format.km(report.privateKm)],
    [t('AutoplanOther'), format.km(report.otherKm)],
    ...(report.reference ? [[t('AutoplanReference'), report.reference] as [string, string]] : []),
  ];
  return (
    // No Alert title: Mantine's light green title text is too pale on its background; the heading takes the text colour.
    <Alert color="green" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
      <Text fw={700} mb={4}>
        {t('AutoplanSentTitle', { month: monthLabel })}
      </Text>
      {/* A list of label and value, two columns that wrap on a phone rather than a table that overflows. */}
      <dl className="triplog-autoplan-figures">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </Alert>
  );
}

function AutomaticSwitch({ announce }: { announce: (text: string, color?: 'green' | 'red') => void }) {
  const { t } = useTranslation();
  const settings = useAutoplanSettings(true);
  const save = useSaveAutoplanSettings();
  if (settings.isPending) return <Loader size="sm" aria-label={t('AutoplanAutomatic')} />;
  return (
    <Stack gap={4}>
      <Switch
        label={t('AutoplanAutomatic')}
        description={t('AutoplanAutomaticHint')}
        checked={settings.data?.automatic ?? false}
        disabled={settings.isError || save.isPending}
        onChange={(event) =>
          save.mutate(
            { automatic: event.currentTarget.checked },
            { onSuccess: () => announce(t('AutoplanSettingsSaved')), onError: (error) => announce(errorMessage(error), 'red') },
          )
        }
      />
      {settings.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(settings.error)}
        </Text>
      ) : null}
    </Stack>
  );
}
