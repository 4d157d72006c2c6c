/**
 * Add unit (/administration/add-terminal, spec section 2; admins only): another tracker from the
 * inventory joins the account. The IMEI (checked as registration checks it), a name, the vehicle
 * type with the marker it gives, and the ordinary users who may see it (admins see every unit).
 * After adding, the unit can be opened in the editor or another one added.
 */
import { Alert, Anchor, Button, Checkbox, Group, NativeSelect, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import IconCircleCheck from '@tabler/icons-react/dist/esm/icons/IconCircleCheck.mjs';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UNIT_NAME_MAX, type AddedUnit } from '../../../../../shared/schemas/add-unit';
import { vehicleTypes } from '../../../../../shared/schemas/vehicle-types';
import { ApiError, errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { fieldErrorText } from '../../../ui/form-errors';
import { UnitMarker } from '../../unit-lock/components/unit-marker';
import { vehicleTypeLabel } from '../../units/unit-list';
import { useAddUnit, useGrantableUsers } from '../api/add-unit';
import { emptyAddUnitForm, serverErrors, validateAddUnit, type AddUnitErrors, type AddUnitForm } from '../add-unit-form';

export function AddUnitPage() {
  const { t } = useTranslation();
  const users = useGrantableUsers();
  const add = useAddUnit();
  const [form, setForm] = useState<AddUnitForm>(emptyAddUnitForm);
  const [errors, setErrors] = useState<AddUnitErrors>({});
  const [added, setAdded] = useState<AddedUnit | null>(null);
  const usersLabelId = useId();
  const set = (patch: Partial<AddUnitForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([field]) => !(field in patch))));
  };
  const typeOptions = useMemo(
    () =>
      vehicleTypes
        .map((type) => ({ value: type, label: vehicleTypeLabel(t, type) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [t],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { request, errors: found } = validateAddUnit(form);
    setErrors(found);
    if (!request) return;
    add.mutate(request, {
      onSuccess: (unit) => {
        setAdded(unit);
        setForm(emptyAddUnitForm);
      },
      onError: (failure) => {
        if (failure instanceof ApiError) setErrors(serverErrors(failure.fieldErrors));
      },
    });
  };
  const failed = add.isError && !(add.error instanceof ApiError && Object.keys(add.error.fieldErrors).length);

  if (added) {
    return (
      <Stack gap="md" maw={640}>
        <Alert color="green" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} role="status">
          <Text fw={600}>{t('AddUnitAdded', { name: added.name })}</Text>
          <Group gap="sm" mt="sm" wrap="wrap">
            <Button component={Link} to={`${paths.editTerminal}?imei=${encodeURIComponent(added.imei)}`}>
              {t('AddUnitEdit')}
            </Button>
            <Button variant="default" onClick={() => setAdded(null)}>
              {t('AddUnitAnother')}
            </Button>
          </Group>
        </Alert>
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={640}>
      <Text c="dimmed" size="sm">
        {t('AddUnitIntro')}
      </Text>
      <Paper withBorder p="md" radius="md">
        <form onSubmit={submit} noValidate aria-label={t('AddUnit')}>
          <Stack gap="md">
            <TextInput
              label={t('AddUnitImei')}
              description={t('AddUnitImeiHelp')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              value={form.imei}
              onChange={(e) => set({ imei: e.currentTarget.value })}
              inputMode="numeric"
              autoComplete="off"
              maxLength={15}
              required
              error={fieldErrorText(errors.imei)}
            />
            <TextInput
              label={t('AddUnitName')}
              description={t('AddUnitNameHelp')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              value={form.name}
              onChange={(e) => set({ name: e.currentTarget.value })}
              maxLength={UNIT_NAME_MAX}
              autoComplete="off"
              required
              error={fieldErrorText(errors.name)}
            />
            <Group gap="sm" align="flex-end" wrap="nowrap">
              <NativeSelect
                label={t('AddUnitVehicleType')}
                data={typeOptions}
                value={form.vehicleType}
                onChange={(e) => set({ vehicleType: e.currentTarget.value })}
                error={fieldErrorText(errors.vehicleType)}
                style={{ flex: 1 }}
                required
              />
              <UnitMarker unit={{ vehicleType: form.vehicleType, color: '', symbol: '' }} />
            </Group>
            <Stack gap={6}>
              <Title order={2} size="h6" id={usersLabelId}>
                {t('AddUnitUsers')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('AddUnitUsersHelp')}
              </Text>
              {users.isPending ? <Skeleton height={60} /> : null}
              {users.isError ? (
                <Alert color="red" variant="light" role="alert">
                  {t('AddUnitUsersLoadFailed')} {errorMessage(users.error)}
                </Alert>
              ) : null}
              {users.data && users.data.length === 0 ? <Text size="sm">{t('AddUnitNoUsers')}</Text> : null}
              {users.data && users.data.length > 0 ? (
                <Checkbox.Group value={form.userIds} onChange={(userIds) => set({ userIds })} aria-labelledby={usersLabelId} error={fieldErrorText(errors.userIds)}>
                  <Stack gap="xs" mt={4}>
                    {users.data.map((u) => (
                      <Checkbox key={u.id} value={u.id} label={`${u.firstName} ${u.lastName}`.trim() || u.email} description={u.email} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              ) : null}
            </Stack>
            {failed ? (
              <Alert color="red" variant="light" role="alert">
                {t('AddUnitFailed')} {errorMessage(add.error)}
              </Alert>
            ) : null}
            <Group justify="space-between" wrap="wrap">
              <Anchor component={Link} to={paths.editTerminalList} size="sm">
                {t('Unit')}
              </Anchor>
              <Button type="submit" loading={add.isPending}>
                {t('AddUnitSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
