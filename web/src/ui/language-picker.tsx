import { NativeSelect } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../shared/schemas/common';
import { parseLanguage, storeLanguage } from '../app/preferences';
import { currentLanguage, languageOptions, loadLanguage } from '../i18n/i18n';

/**
 * English, Svenska, Norsk. A native select: keyboard and screen-reader behaviour for free, the
 * platform picker on phones, and no popover code on the login page.
 */
export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState(false);
  const value = parseLanguage(i18n.language) ?? currentLanguage();

  async function change(next: Language) {
    setPending(true);
    try {
      await loadLanguage(next);
      storeLanguage(next);
    } finally {
      setPending(false);
    }
  }

  return (
    <NativeSelect
      aria-label={t('Language')}
      data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
      value={value}
      disabled={pending}
      onChange={(event) => {
        const next = parseLanguage(event.currentTarget.value);
        if (next) void change(next);
      }}
      size={compact ? 'xs' : 'sm'}
      w={compact ? 104 : 128}
    />
  );
}
