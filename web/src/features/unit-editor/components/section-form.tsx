/**
 * One section of the unit editor: its own form, saved alone (a partial PUT of its fields), the
 * server's 422 keys shown on the fields they name (a key for no field of the section in an alert
 * above the button), a success notification, and the form afterwards showing the unit as stored
 * (the registration number upper case, empty labels gone).
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { get, useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { UnitEditor, UnitUpdateRequest } from '../../../../../shared/schemas/unit-editor';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useSaveUnit } from '../api/unit-editor-api';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

interface SectionFormProps<T extends FieldValues> {
  unit: UnitEditor;
  /** The form's values for a unit: at first the unit as loaded, after a save the unit as stored. */
  defaultsOf: (unit: UnitEditor) => T;
  /** The request fields this section saves, from the form's values. */
  toBody: (values: T) => UnitUpdateRequest;
  /** Maps a server error field (`theft.date`) to the form field it belongs to (default: the same name). */
  fieldOf?: (serverField: string) => string;
  children: (form: UseFormReturn<T>) => ReactNode;
  saveLabel?: string;
  /** Accessible name of the form (the section's title). */
  label: string;
  /** Nothing to save: the fields are shown disabled and the button is left out. */
  readOnly?: boolean;
}

export function SectionForm<T extends FieldValues>({ unit, defaultsOf, toBody, fieldOf = (f) => f, children, saveLabel, label, readOnly = false }: SectionFormProps<T>) {
  const { t } = useTranslation();
  const save = useSaveUnit(unit.imei);
  const form = useForm<T>({ defaultValues: defaultsOf(unit) as never });
  // Server keys naming no field of this section (a list's own rule, say): shown above the button.
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const submit = form.handleSubmit((values) => {
    setOtherErrors([]);
    save.mutate(toBody(values), {
      onSuccess: (stored) => {
        notifications.show({ color: 'green', message: t('UnitEditorSaved'), closeButtonProps: { 'aria-label': t('UnitEditorCloseMessage') } });
        form.reset(defaultsOf(stored));
      },
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        let first = true;
        const others: string[] = [];
        for (const [field, keys] of Object.entries(error.fieldErrors)) {
          const key = keys[0];
          if (!key) continue;
          const name = fieldOf(field);
          if (get(form.getValues(), name) === undefined) {
            others.push(key);
            continue;
          }
          form.setError(name as Path<T>, { type: 'server', message: key }, { shouldFocus: first });
          first = false;
        }
        setOtherErrors(others);
      },
    });
  });
  const fieldErrors = save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length > 0;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label={label}>
      <Stack gap="sm">
        {children(form)}
        {save.isError && !fieldErrors ? (
          <LockedOrFailed error={save.error}>
<Alert color="red" variant="light" role="alert" p="xs">
            {errorMessage(save.error)}
          </Alert>
</LockedOrFailed>
        ) : null}
        {otherErrors.length ? (
          <Alert color="red" variant="light" role="alert" p="xs">
            {otherErrors.map((key) => fieldErrorText(key)).join(' ')}
          </Alert>
        ) : null}
        {readOnly ? null : (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {saveLabel ?? t('UnitEditorSave')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
