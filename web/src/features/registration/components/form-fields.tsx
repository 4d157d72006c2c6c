/**
 * Form fields bound to react-hook-form: the error beside the field, translated from its message
 * key, and for limited fields a remaining-characters counter (spec section 5) under the input,
 * read out with the field (it is part of the description the input points to).
 */
import { Anchor, Checkbox, Group, Stack, Text, TextInput, Textarea, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useController, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../i18n/i18n';
import { PasswordTextInput } from '../../../ui/password-text-input';

/** The translated error of a field, or undefined. */
export function useFieldError(message: string | undefined): string | undefined {
  const { t, i18n } = useTranslation();
  if (!message) return undefined;
  // An unknown key never reaches the screen raw (translateMessage falls back on SomethingWentWrong).
  return i18n.exists(message) ? t(message) : translateMessage(message);
}

function Description({ hint, counter }: { hint?: ReactNode; counter?: string | undefined }) {
  if (!hint && !counter) return null;
  return (
    <Group component="span" justify="space-between" gap="xs" wrap="nowrap" align="flex-start" style={{ display: 'flex' }}>
      <span>{hint}</span>
      {counter ? (
        <Text component="span" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {counter}
        </Text>
      ) : null}
    </Group>
  );
}

interface BaseProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  hint?: ReactNode;
  /** Limit of the field: the input stops there and a counter shows what is left. */
  max?: number;
  /** Characters left when the limit is shared with other fields (first and last name). */
  remaining?: number;
  /** A limit without a counter (an IMEI is 15 digits; counting them down helps nobody). */
  showCounter?: boolean;
}

type TextFieldProps<T extends FieldValues> = BaseProps<T> &
  Omit<TextInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error' | 'description' | 'maxLength'>;

export function TextField<T extends FieldValues>({ control, name, label, hint, max, remaining, showCounter = true, ...rest }: TextFieldProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const shown = typeof field.value === 'string' ? field.value : '';
  const left = remaining ?? (max !== undefined ? max - shown.length : undefined);
  const error = useFieldError(fieldState.error?.message);
  return (
    <TextInput
      {...rest}
      ref={field.ref}
      name={field.name}
      label={label}
      value={shown}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      onBlur={field.onBlur}
      maxLength={max !== undefined ? shown.length + Math.max(0, left ?? 0) : undefined}
      description={<Description hint={hint} counter={showCounter && left !== undefined ? t('CharactersLeft', { count: Math.max(0, left) }) : undefined} />}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
    />
  );
}

export function TextAreaField<T extends FieldValues>({ control, name, label, hint, max }: BaseProps<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const value = typeof field.value === 'string' ? field.value : '';
  const error = useFieldError(fieldState.error?.message);
  return (
    <Textarea
      ref={field.ref}
      name={field.name}
      label={label}
      value={value}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      onBlur={field.onBlur}
      autosize
      minRows={2}
      maxRows={6}
      maxLength={max}
      description={<Description hint={hint} counter={max !== undefined ? t('CharactersLeft', { count: max - value.length }) : undefined} />}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
    />
  );
}

interface PasswordFieldProps<T extends FieldValues> extends BaseProps<T> {
  visible: boolean;
  onVisibilityChange: (visible: boolean) => void;
  autoComplete: string;
}

export function PasswordField<T extends FieldValues>({ control, name, label, hint, visible, onVisibilityChange, autoComplete }: PasswordFieldProps<T>) {
  const { field, fieldState } = useController({ control, name });
  const error = useFieldError(fieldState.error?.message);
  return (
    <PasswordTextInput
      ref={field.ref}
      name={field.name}
      label={label}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={(event) => field.onChange(event.currentTarget.value)}
      onBlur={field.onBlur}
      autoComplete={autoComplete}
      required
      visible={visible}
      onVisibilityChange={onVisibilityChange}
      description={hint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
    />
  );
}

/** The new password and its confirmation, one show/hide state for both (the wizard's step and the classic form). */
export function NewPasswordFields<T extends { userPassword: string; userPassword_confirmation: string }>({
  control,
  visible,
  onVisibilityChange,
}: {
  control: Control<T>;
  visible: boolean;
  onVisibilityChange: (visible: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        control={control}
        name={'userPassword' as FieldPath<T>}
        label={t('PasswordLabel')}
        hint={t('PasswordHint')}
        autoComplete="new-password"
        visible={visible}
        onVisibilityChange={onVisibilityChange}
      />
      <PasswordField
        control={control}
        name={'userPassword_confirmation' as FieldPath<T>}
        label={t('ConfirmPasswordLabel')}
        autoComplete="new-password"
        visible={visible}
        onVisibilityChange={onVisibilityChange}
      />
    </>
  );
}

/** The terms checkbox (brand 0) with the terms page of the brand in the page language beside it. */
export function TermsField<T extends { terms: boolean }>({ control, href }: { control: Control<T>; href: string }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control: control as unknown as Control<{ terms: boolean }>, name: 'terms' });
  const error = useFieldError(fieldState.error?.message);
  return (
    <Stack gap={4}>
      <Checkbox
        ref={field.ref}
        name={field.name}
        checked={field.value}
        onChange={(event) => field.onChange(event.currentTarget.checked)}
        onBlur={field.onBlur}
        label={t('TermsCheckbox')}
        error={error}
      />
      <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" ml={32}>
        {t('ReadTerms')}
      </Anchor>
    </Stack>
  );
}

