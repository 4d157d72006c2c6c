import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { operatingModes, type Command } from '../../../../../shared/schemas/commands';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { errorMessage } from '../../../app/api-client';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { useSendUnitCommand } from '../api/unit-commands';
import { modeFormSchema, modeRequest, type ModeFormInput, type ModeFormValues } from '../command-forms';
import { acknowledgedMode, latestFor, operatingModeDescription, operatingModeName } from '../command-state';
import { CommandStatus } from './command-status';

/** The unit's operating mode and a choice of the nine (spec sections 4 and 9). */
export function OperatingModeControl({ unit, commands, now }: { unit: RealtimeUnit; commands: readonly Command[]; now: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const send = useSendUnitCommand(unit.imei);
  const form = useForm<ModeFormInput, unknown, ModeFormValues>({
    resolver: zodResolver(modeFormSchema),
    defaultValues: { mode: unit.operatingMode ?? '' },
  });
  const modeError = form.formState.errors.mode?.message;
  const latest = latestFor(commands, 'operatingMode');
  const current = acknowledgedMode(commands, unit.operatingMode);

  const onSubmit = form.handleSubmit((values) =>
    send.mutate(modeRequest(values), { onError: (error) => applyServerFieldErrors(error, ['mode'], form.setError) }),
  );

  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('OperatingModeHeading')}
      </Title>
      <Text size="sm" fw={500}>
        {current ? t('OperatingModeCurrent', { mode: t(operatingModeName[current]) }) : t('OperatingModeCurrentUnknown')}
      </Text>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="mode"
            render={({ field }) => (
              <Radio.Group
                name={field.name}
                label={t('OperatingModeChoose')}
                description={t('OperatingModeNextContact')}
                value={typeof field.value === 'string' ? field.value : ''}
                onChange={field.onChange}
                error={fieldErrorText(modeError)}
              >
                <Stack gap="xs" mt="xs">
                  {operatingModes.map((mode, index) => (
                    <Radio
                      key={mode}
                      value={mode}
                      // react-hook-form focuses the first option when nothing was chosen.
                      ref={index === 0 ? field.ref : undefined}
                      label={t(operatingModeName[mode])}
                      description={t(operatingModeDescription[mode])}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          />
          {send.isError && !modeError ? (
            <Alert color="red" variant="light" role="alert" p="xs">
              {errorMessage(send.error)}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={send.isPending}>
              {t('OperatingModeSend')}
            </Button>
          </Group>
          {latest ? <CommandStatus command={latest} now={now} /> : null}
        </Stack>
      </form>
    </Stack>
  );
}
