/**
 * Odometer entries of a unit (spec section 3: date and time, value): readings a user took from the
 * dashboard, which correct the odometers of later trips. List, add and delete.
 */
import { ActionIcon, Alert, Button, Center, Group, Loader, Modal, NumberInput, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ODOMETER_MAX_KM, odometerEntryRequestSchema } from '../../../../../shared/schemas/trips';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useAddOdometerEntry, useDeleteOdometerEntry, useOdometerEntries } from '../api/trip-api';
import { useTripFormat } from '../format';
import { lockedByAmong, TrackerLocked } from '../../unit-lock/components/tracker-locked';
import { toDateTimeInput } from '../trip-log';
import { DateTimeField } from '../../../ui/date-fields';

interface OdometerModalProps {
  imei: string;
  unitName: string;
  opened: boolean;
  onClose: () => void;
  /** Said through the page's live region. */
  announce: (text: string) => void;
}

export function OdometerModal({ imei, unitName, opened, onClose, announce }: OdometerModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('TripOdometerTitle', { unit: unitName })} centered size="lg" closeButtonProps={{ 'aria-label': t('TripClose') }}>
      {opened ? <OdometerEntries imei={imei} announce={announce} /> : null}
    </Modal>
  );
}

function OdometerEntries({ imei, announce }: { imei: string; announce: (text: string) => void }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const entries = useOdometerEntries(imei);
  const add = useAddOdometerEntry(imei);
  const remove = useDeleteOdometerEntry(imei);
  const listHeadingId = useId();
  const [time, setTime] = useState(() => toDateTimeInput(new Date()));
  const [value, setValue] = useState<number | string>('');
  const [errors, setErrors] = useState<{ time?: string; value?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = odometerEntryRequestSchema.safeParse({ time, value: typeof value === 'number' ? value : value === '' ? undefined : Number(value) });
    if (!parsed.success) {
      const next: { time?: string; value?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'time' || field === 'value') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    add.mutate(parsed.data, {
      onSuccess: () => {
        setValue('');
        announce(t('TripOdometerAdded'));
      },
      onError: (error) => {
        if (error instanceof ApiError) setErrors({ time: error.fieldErrors['time']?.[0], value: error.fieldErrors['value']?.[0] });
      },
    });
  };
  const addFieldError = Boolean(errors.time || errors.value);
  // A unit locked by someone else: neither its readings nor a new one, only who locked it.
  const lockedBy = lockedByAmong(entries.error, add.error, remove.error);
  if (lockedBy !== null) return <TrackerLocked lockedBy={lockedBy} />;

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('TripOdometerIntro')}
          </Text>
          {add.isError && !addFieldError ? (
            <Alert color="red" role="alert">
              {errorMessage(add.error)}
            </Alert>
          ) : null}
          <Group align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
            <DateTimeField
              label={t('TripOdometerTime')}
              value={time}
              onChange={(next) => {
                setTime(next);
                setErrors((e) => ({ ...e, time: undefined }));
              }}
              required
              error={fieldErrorText(errors.time)}
              miw={200}
            />
            <NumberInput
              label={t('TripOdometerValue')}
              value={value}
              onChange={(next) => {
                setValue(next);
                setErrors((e) => ({ ...e, value: undefined }));
              }}
              min={0}
              max={ODOMETER_MAX_KM}
              decimalScale={1}
              suffix=" km"
              required
              inputMode="decimal"
              error={fieldErrorText(errors.value)}
              miw={160}
            />
          </Group>
          <Group justify="flex-end">
            <Button type="submit" loading={add.isPending}>
              {t('TripOdometerAdd')}
            </Button>
          </Group>
        </Stack>
      </form>

      <section aria-labelledby={listHeadingId}>
        <Title order={3} size="h5" id={listHeadingId} mb="xs">
          {t('TripOdometerEntries')}
        </Title>
        {entries.isPending ? (
          <Center py="md">
            <Loader role="progressbar" aria-label={t('Loading')} size="sm" />
          </Center>
        ) : entries.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(entries.error)}
          </Alert>
        ) : entries.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('TripOdometerNone')}
          </Text>
        ) : (
          <Table aria-labelledby={listHeadingId} verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('TripOdometerTime')}</Table.Th>
                <Table.Th ta="end">{t('TripOdometerValue')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('TripActions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.data.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{format.dateTime(entry.time)}</Table.Td>
                  <Table.Td ta="end">{t('TripKmValue', { value: format.odometer(entry.value) })}</Table.Td>
                  <Table.Td ta="end">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('TripOdometerDelete', { time: format.dateTime(entry.time) })}
                      loading={remove.isPending && remove.variables === entry.id}
                      onClick={() =>
                        remove.mutate(entry.id, {
                          onSuccess: () => announce(t('TripOdometerDeleted')),
                        })
                      }
                    >
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {remove.isError ? (
          <Alert color="red" role="alert" mt="xs">
            {errorMessage(remove.error)}
          </Alert>
        ) : null}
      </section>
    </Stack>
  );
}
