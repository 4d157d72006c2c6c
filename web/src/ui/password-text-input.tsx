import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Every password field of the portal: the show/hide toggle is reachable by keyboard and named, it
 * says whether the password is shown, and the input is marked invalid with its error (Mantine's
 * PasswordInput does not do that by itself).
 */
export function PasswordTextInput({ ref, ...props }: PasswordInputProps & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      ref={ref}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('ShowPassword'), ...(props.visible === undefined ? {} : { 'aria-pressed': props.visible }) }}
      aria-invalid={props.error ? true : undefined}
      {...props}
    />
  );
}
