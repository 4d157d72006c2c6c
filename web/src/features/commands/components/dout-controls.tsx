import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Fieldset, Group, Modal, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DOUT_LABEL_MAX_CHARS, DOUT_OUTPUTS, type Command } from '../../../../../shared/schemas/commands';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { errorMessage } from '../../../app/api-client';
import { applyServerFieldErrors, fieldErrorText } from '../../../ui/form-errors';
import { useSendUnitCommand } from '../api/unit-commands';
import { doutFormSchema, doutRequest, type DoutFormInput, type DoutFormValues } from '../command-forms';
import { doutLockSeconds, latestFor } from '../command-state';
import { CommandStatus } from './command-status';
import { isImmobiliserOrRelay } from '../../unit-lock/output-safety';

interface DoutControlProps {
  unit: RealtimeUnit;
  output: number;
  latest: Command | undefined;
  now: number;
  /** Id of the text saying why sending is locked, while it is. */
  lockedBy: string | undefined;
}

function DoutControl({ unit, output, latest, now, lockedBy }: DoutControlProps) {
  const { t } = useTranslation();
  const key = String(output);
  // The label is saved with the command; until the unit list is fetched again, show the one just sent.
  const [sentLabel, setSentLabel] = useState<string | null>(null);
  const label = sentLabel ?? unit.doutLabels[key] ?? '';
  const state = unit.state?.dout[key];
  const send = useSendUnitCommand(unit.imei);
  const form = useForm<DoutFormInput, unknown, DoutFormValues>({
    resolver: zodResolver(doutFormSchema),
    defaultValues: { on: true, durationSeconds: '', label },
  });
  const { errors } = form.formState;
  const typedLabel = form.watch('label') ?? '';
  // An immobiliser or relay output is switched only after a confirmation naming the unit and output.
  const [confirming, setConfirming] = useState<boolean | null>(null);
  const guarded = isImmobiliserOrRelay(label) || isImmobiliserOrRelay(typedLabel);

  const submit = (on: boolean) => {
    form.setValue('on', on);
    void form.handleSubmit((values) =>
      send.mutate(doutRequest(output, values), {
        onSuccess: () => setSentLabel(values.label ?? ''),
        onError: (error) => applyServerFieldErrors(error, ['durationSeconds', 'label'], form.setError),
      }),
    )();
  };
  const fieldError = Boolean(errors.durationSeconds || errors.label);
  const name = label ? t('DoutNameLabelled', { output, label }) : t('DoutName', { output });

  return (
    <Fieldset legend={name} variant="filled" p="sm">
      <Badge variant="light" color={state ? 'green' : 'gray'} mb="sm">
        {t(state === undefined ? 'DoutCurrentlyUnknown' : state ? 'DoutCurrentlyOn' : 'DoutCurrentlyOff')}
      </Badge>
      <form onSubmit={(event) => event.preventDefault()} noValidate>
        <Stack gap="sm">
          <Controller
            control={form.control}
            name="durationSeconds"
            render={({ field }) => (
              <NumberInput
                ref={field.ref}
                name={field.name}
                label={t('DoutDuration')}
                description={t('DoutDurationHint')}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                value={typeof field.value === 'number' || typeof field.value === 'string' ? field.value : ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                allowDecimal={false}
                allowNegative={false}
                // Out-of-range values get the spec's message rather than being changed silently.
                clampBehavior="none"
                min={1}
                inputMode="numeric"
                error={fieldErrorText(errors.durationSeconds?.message)}
              />
            )}
          />
          <TextInput
            label={t('DoutLabel')}
            description={t('DoutLabelCharactersLeft', { count: Math.max(0, DOUT_LABEL_MAX_CHARS - typedLabel.length) })}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            maxLength={DOUT_LABEL_MAX_CHARS}
            autoComplete="off"
            {...form.register('label')}
            error={fieldErrorText(errors.label?.message)}
          />
          <Group gap="sm">
            {[true, false].map((on) => (
              <Button
                key={String(on)}
                variant={on ? 'filled' : 'default'}
                onClick={() => (guarded ? setConfirming(on) : submit(on))}
                disabled={Boolean(lockedBy)}
                loading={send.isPending && send.variables?.type === 'dout' && send.variables.on === on}
                aria-label={t(on ? 'DoutSwitchOnNamed' : 'DoutSwitchOffNamed', { output })}
                aria-describedby={lockedBy}
              >
                {t(on ? 'DoutSwitchOn' : 'DoutSwitchOff')}
              </Button>
            ))}
          </Group>
          {send.isError && !fieldError ? (
            <Alert color="red" variant="light" role="alert" p="xs">
              {errorMessage(send.error)}
            </Alert>
          ) : null}
          {latest ? <CommandStatus command={latest} now={now} /> : null}
        </Stack>
      </form>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        centered
        closeButtonProps={{ 'aria-label': t('OutputConfirmCancel') }}
        title={t('OutputConfirmTitle', { output: name, state: t(confirming ? 'OutputConfirmOn' : 'OutputConfirmOff') })}
      >
        <Stack gap="md">
          <Text size="sm">{t('OutputConfirmBody', { output: name, unit: unit.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('OutputConfirmCancel')}
            </Button>
            <Button
              color="red.8"
              onClick={() => {
                const on = confirming === true;
                setConfirming(null);
                submit(on);
              }}
            >
              {t('OutputConfirmSend', { state: t(confirming ? 'OutputConfirmOn' : 'OutputConfirmOff') })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Fieldset>
  );
}

/** DOUT1-3: the state from the latest position, the output's label, On/Off with an optional duration. */
export function DoutControls({ unit, commands, now }: { unit: RealtimeUnit; commands: readonly Command[]; now: number }) {
  const { t } = useTranslation();
  const headingId = useId();
  const lockId = useId();
  const lock = doutLockSeconds(commands, now);
  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('DoutHeading')}
      </Title>
      {lock > 0 ? (
        <Text id={lockId} size="sm" c="blue.8">
          {t('DoutLocked', { seconds: lock })}
        </Text>
      ) : null}
      {DOUT_OUTPUTS.map((output) => (
        <DoutControl
          key={output}
          unit={unit}
          output={output}
          latest={latestFor(commands, output)}
          now={now}
          lockedBy={lock > 0 ? lockId : undefined}
        />
      ))}
    </Stack>
  );
}
