/**
 * After a place is saved: "apply to trips from ... to ...". Its rule then types the stored trips of
 * its units in that period that match it (attested ones are kept), and the answer says how many
 * changed. The period is local days, at most 12 months, as in the trip log.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import IconCheck from '@tabler/icons-react/dist/esm/icons/IconCheck.mjs';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { placeApplyRequestSchema, type PlaceApply } from '../../../../../shared/schemas/places';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useApplyPlace } from '../api/place-api';
import { DateField } from '../../../ui/date-fields';

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function ApplyOffer({ placeId, onClose }: { placeId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const today = new Date();
  const [from, setFrom] = useState(() => day(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => day(today));
  const [errors, setErrors] = useState<{ from?: string | undefined; to?: string | undefined }>({});
  const [result, setResult] = useState<PlaceApply | null>(null);
  const apply = useApplyPlace();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = placeApplyRequestSchema.safeParse({ from, to });
    if (!parsed.success) {
      const first = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
      setErrors({ from: first('from'), to: first('to') });
      return;
    }
    setErrors({});
    setResult(null);
    apply.mutate(
      { id: placeId, body: parsed.data },
      {
        onSuccess: setResult,
        onError: (error) => {
          if (error instanceof ApiError) setErrors({ from: error.fieldErrors['from']?.[0], to: error.fieldErrors['to']?.[0] });
        },
      },
    );
  };

  return (
    // No Alert title: the light variant's green title is too pale on its background (axe color-contrast).
    <Alert variant="light" color="green" icon={<IconCheck size={20} aria-hidden />} data-testid="apply-offer">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text fw={700} role="status">
            {t('PlaceSaved')}
          </Text>
          <Text size="sm">{t('PlaceApplyIntro')}</Text>
          <Group gap="sm" align="flex-start" wrap="wrap">
            <DateField label={t('PlaceApplyFrom')} value={from} onChange={setFrom} error={fieldErrorText(errors.from)} required />
            <DateField label={t('PlaceApplyTo')} value={to} onChange={setTo} error={fieldErrorText(errors.to)} required />
          </Group>
          <Group gap="sm">
            <Button type="submit" loading={apply.isPending}>
              {t('PlaceApply')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('PlaceApplyNotNow')}
            </Button>
          </Group>
          <div role="status" aria-live="polite">
            {result ? (
              <Text size="sm" fw={600} data-testid="apply-result">
                {t('PlaceApplyDone', { count: result.changed })}
                {result.attested ? ` ${t('PlaceApplyAttested', { count: result.attested })}` : ''}
              </Text>
            ) : null}
            {apply.isError && !(apply.error instanceof ApiError && Object.keys(apply.error.fieldErrors).length) ? (
              <Text size="sm" c="red.8">
                {errorMessage(apply.error)}
              </Text>
            ) : null}
          </div>
        </Stack>
      </form>
    </Alert>
  );
}
