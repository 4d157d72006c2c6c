import { MantineProvider } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { Brand } from '../../../shared/brands';
import { i18n } from '../i18n/i18n';
import { BrandContext } from './brand-context';
import { brandTheme, cssVariablesResolver } from './theme';

/** Providers of every page. TanStack Query's provider sits in the lazily loaded member area. */
export function Providers({ brand, children }: { brand: Brand; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <BrandContext.Provider value={brand}>
        <BrandTheme brand={brand}>{children}</BrandTheme>
      </BrandContext.Provider>
    </I18nextProvider>
  );
}

/** The brand's theme in the page's language (a new theme only when the language changes). */
function BrandTheme({ brand, children }: { brand: Brand; children: ReactNode }) {
  const { t } = useTranslation();
  const closeLabel = t('CloseDialog');
  const theme = useMemo(() => brandTheme(brand, closeLabel), [brand, closeLabel]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
