/**
 * Bulk tasks for the units selected in the list (spec sections 2 and 4): set the operating mode,
 * switch an output (DOUT), or assign alarm receivers, departments or tags (admins), with the
 * result per unit in a table. An output labelled as an immobiliser or relay on any selected unit
 * is switched only after a confirmation naming those units.
 */
import { Alert, Button, Group, Modal, MultiSelect, NumberInput, Paper, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../../../shared/routes';
import { alarmReceiverListSchema } from '../../../../../shared/schemas/alarms';
import { organisationListSchema } from '../../../../../shared/schemas/organisation';
import { bulkUnitsRequestSchema, bulkUnitsResponseSchema, type BulkActionRequest, type BulkUnitResult } from '../../../../../shared/schemas/bulk-units';
import { DOUT_DURATION_MAX_SECONDS, DOUT_OUTPUTS, operatingModes, type OperatingMode } from '../../../../../shared/schemas/commands';
import type { UnitListItem } from '../../../../../shared/schemas/units';
import { apiRequest, errorMessage } from '../../../app/api-client';
import { useLoadedSettings } from '../../../app/guards';
import { fieldErrorText } from '../../../ui/form-errors';
import { operatingModeName } from '../../commands/command-state';
import { isImmobiliserOrRelay } from '../../unit-lock/output-safety';

type ActionType = BulkActionRequest['type'];

interface Props {
  units: readonly UnitListItem[];
  selected: ReadonlySet<string>;
  onClear: () => void;
}

function useReceivers(enabled: boolean) {
  return useQuery({
    queryKey: ['alarm-receivers'],
    queryFn: ({ signal }) => apiRequest('GET', '/api/v1/administration/alarm-receivers', { schema: alarmReceiverListSchema, signal }),
    enabled,
  });
}

/** The account's departments or tags to choose from. */
function useOrganisationItems(kind: 'departments' | 'tags', enabled: boolean) {
  return useQuery({
    queryKey: ['organisation', kind],
    queryFn: ({ signal }) => apiRequest('GET', `/api/v1/administration/organisation/${kind}`, { schema: organisationListSchema, signal }),
    enabled,
  });
}

/** Field errors of the request by the form's own names (`action.mode` → `mode`). */
function fieldKeys(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path[0] === 'action' ? String(issue.path[1] ?? 'type') : String(issue.path[0] ?? 'imeis');
    out[field] ??= issue.message;
  }
  return out;
}

export function BulkTasks({ units, selected, onClear }: Props) {
  const { t } = useTranslation();
  const settings = useLoadedSettings();
  const isAdmin = settings.is_admin;
  const [type, setType] = useState<ActionType>('operatingMode');
  const [mode, setMode] = useState<OperatingMode | null>(null);
  const [output, setOutput] = useState<string>('1');
  const [on, setOn] = useState<'on' | 'off'>('on');
  const [duration, setDuration] = useState<string | number>('');
  const [receiverIds, setReceiverIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<{ action: BulkActionRequest; names: string[] } | null>(null);
  const [results, setResults] = useState<BulkUnitResult[] | null>(null);
  const queryClient = useQueryClient();
  const receivers = useReceivers(isAdmin && type === 'alarmReceivers');
  const [itemIds, setItemIds] = useState<string[]>([]);
  const organisationKind = type === 'departments' || type === 'tags' ? type : null;
  const items = useOrganisationItems(organisationKind ?? 'departments', isAdmin && organisationKind !== null);
  const byImei = useMemo(() => new Map(units.map((u) => [u.imei, u])), [units]);
  const chosen = useMemo(() => units.filter((u) => selected.has(u.imei)), [units, selected]);

  const run = useMutation({
    mutationFn: (action: BulkActionRequest) =>
      apiRequest('POST', routes.bulkUnits.path, { body: { imeis: chosen.map((u) => u.imei), action }, schema: bulkUnitsResponseSchema }),
    onSuccess: async (data, action) => {
      setResults(data.results);
      // The list shows each unit's departments and tags.
      if (action.type === 'departments' || action.type === 'tags') await queryClient.invalidateQueries({ queryKey: ['units'] });
    },
  });

  if (selected.size === 0 && results === null) {
    return (
      <Text size="sm" c="dimmed">
        {t('BulkHint')}
      </Text>
    );
  }

  const actionOf = (): BulkActionRequest => {
    if (type === 'operatingMode') return { type, mode: mode as OperatingMode };
    if (type === 'dout') {
      const seconds = duration === '' ? undefined : Number(duration);
      return { type, output: Number(output), on: on === 'on', ...(seconds === undefined ? {} : { durationSeconds: seconds }) };
    }
    if (type === 'departments' || type === 'tags') return { type, ids: itemIds };
    return { type, receiverIds };
  };

  const submit = () => {
    const action = actionOf();
    const checked = bulkUnitsRequestSchema.safeParse({ imeis: chosen.map((u) => u.imei), action });
    if (!checked.success) {
      setErrors(fieldKeys(checked.error.issues));
      return;
    }
    setErrors({});
    setResults(null);
    if (action.type === 'dout') {
      const relays = chosen.filter((u) => isImmobiliserOrRelay(u.doutLabels?.[String(action.output)]));
      if (relays.length) {
        setConfirming({ action, names: relays.map((u) => u.name) });
        return;
      }
    }
    run.mutate(action);
  };

  const outcome = (r: BulkUnitResult): string => {
    if (r.ok) return t(r.commandId ? 'BulkResultCommandSent' : 'BulkResultDone');
    return t(r.error ?? 'SomethingWentWrong', { lockedBy: byImei.get(r.imei)?.lockedBy ?? '' });
  };
  const okCount = results?.filter((r) => r.ok).length ?? 0;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="bulk-tasks-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="bulk-tasks-title">
            {t('BulkTasks')}
          </Title>
          <Group gap="xs">
            <Text size="sm" role="status">
              {t('BulkSelectedCount', { count: selected.size })}
            </Text>
            <Button size="xs" variant="subtle" onClick={onClear} disabled={selected.size === 0}>
              {t('BulkClearSelection')}
            </Button>
          </Group>
        </Group>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            <Select
              label={t('BulkActionLabel')}
              value={type}
              allowDeselect={false}
              onChange={(value) => {
                if (value) setType(value as ActionType);
                // Departments and tags are different lists: a choice of one is no choice of the other.
                if (value !== type) setItemIds([]);
                setErrors({});
              }}
              data={[
                { value: 'operatingMode', label: t('BulkActionOperatingMode') },
                { value: 'dout', label: t('BulkActionDout') },
                ...(isAdmin
                  ? [
                      { value: 'alarmReceivers', label: t('BulkActionAlarmReceivers') },
                      { value: 'departments', label: t('BulkActionDepartments') },
                      { value: 'tags', label: t('BulkActionTags') },
                    ]
                  : []),
              ]}
              maw={360}
            />
            {type === 'operatingMode' ? (
              <Select
                label={t('BulkModeLabel')}
                required
                value={mode}
                onChange={(value) => setMode(value as OperatingMode | null)}
                data={operatingModes.map((m) => ({ value: m, label: t(operatingModeName[m]) }))}
                error={fieldErrorText(errors['mode'])}
                maw={360}
              />
            ) : null}
            {type === 'dout' ? (
              <Group align="flex-start" gap="md" wrap="wrap">
                <Select
                  label={t('BulkOutputLabel')}
                  value={output}
                  allowDeselect={false}
                  onChange={(value) => value && setOutput(value)}
                  data={DOUT_OUTPUTS.map((o) => ({ value: String(o), label: t('BulkOutputOption', { output: o }) }))}
                  error={fieldErrorText(errors['output'])}
                  w={160}
                />
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="bulk-dout-state">
                    {t('BulkOutputStateLabel')}
                  </Text>
                  <SegmentedControl
                    aria-labelledby="bulk-dout-state"
                    value={on}
                    onChange={(value) => setOn(value as 'on' | 'off')}
                    data={[
                      { value: 'on', label: t('BulkOn') },
                      { value: 'off', label: t('BulkOff') },
                    ]}
                  />
                </Stack>
                <NumberInput
                  label={t('BulkDurationLabel')}
                  description={t('BulkDurationHint')}
                  value={duration}
                  onChange={setDuration}
                  min={1}
                  max={DOUT_DURATION_MAX_SECONDS}
                  allowDecimal={false}
                  error={fieldErrorText(errors['durationSeconds'])}
                  w={240}
                />
              </Group>
            ) : null}
            {type === 'alarmReceivers' ? (
              receivers.data && receivers.data.alarmReceivers.length === 0 ? (
                <Text size="sm">{t('BulkNoReceivers')}</Text>
              ) : (
                <MultiSelect
                  label={t('BulkReceiversLabel')}
                  description={t('BulkReceiversHint')}
                  required
                  searchable
                  value={receiverIds}
                  onChange={setReceiverIds}
                  data={(receivers.data?.alarmReceivers ?? []).map((r) => ({ value: r.id, label: r.name }))}
                  error={fieldErrorText(errors['receiverIds'])}
                  maw={480}
                />
              )
            ) : null}
            {organisationKind ? (
              items.data && items.data.items.length === 0 ? (
                <Text size="sm">{t(organisationKind === 'departments' ? 'BulkNoDepartments' : 'BulkNoTags')}</Text>
              ) : (
                <MultiSelect
                  label={t(organisationKind === 'departments' ? 'BulkDepartmentsLabel' : 'BulkTagsLabel')}
                  description={t('BulkOrganisationHint')}
                  required
                  searchable
                  value={itemIds}
                  onChange={setItemIds}
                  data={(items.data?.items ?? []).map((item) => ({ value: item.id, label: item.name }))}
                  error={fieldErrorText(errors['ids'])}
                  maw={480}
                />
              )
            ) : null}
            {errors['imeis'] ? (
              <Text c="red" size="sm" role="alert">
                {fieldErrorText(errors['imeis'])}
              </Text>
            ) : null}
            {run.isError ? (
              <Alert color="red" role="alert" title={t('BulkFailed')}>
                {errorMessage(run.error)}
              </Alert>
            ) : null}
            <Group>
              <Button type="submit" loading={run.isPending} disabled={selected.size === 0}>
                {t('BulkRun', { count: selected.size })}
              </Button>
            </Group>
          </Stack>
        </form>
        {results ? (
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('BulkResultsTitle')}
            </Title>
            <Text size="sm" role="status">
              {t('BulkResultsSummary', { ok: okCount, count: results.length })}
            </Text>
            <Table.ScrollContainer minWidth={320} type="native">
              <Table verticalSpacing="xs" aria-label={t('BulkResultsTitle')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('BulkResultUnit')}</Table.Th>
                    <Table.Th scope="col">{t('BulkResultOutcome')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {results.map((r) => (
                    <Table.Tr key={r.imei}>
                      <Table.Td>{byImei.get(r.imei)?.name ?? r.imei}</Table.Td>
                      <Table.Td>
                        <Text size="sm" c={r.ok ? undefined : 'red.9'} fw={500}>
                          {outcome(r)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        ) : null}
      </Stack>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={t('BulkConfirmTitle')} closeButtonProps={{ 'aria-label': t('BulkCancel') }}>
        <Stack gap="md">
          <Text>
            {t('BulkConfirmRelay', {
              output: confirming && confirming.action.type === 'dout' ? confirming.action.output : '',
              units: confirming?.names.join(', ') ?? '',
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)} data-autofocus>
              {t('BulkCancel')}
            </Button>
            <Button
              color="red.8"
              onClick={() => {
                if (confirming) run.mutate(confirming.action);
                setConfirming(null);
              }}
            >
              {t('BulkConfirmSwitch')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
