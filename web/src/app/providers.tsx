import { MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { Brand } from '../../../shared/brands';
import { i18n } from '../i18n/i18n';
import { BrandContext } from './brand-context';
import { brandTheme, cssVariablesResolver } from './theme';

/** Providers of every page. TanStack Query's provider sits in the lazily loaded member area. */
export function Providers({ brand, children }: { brand: Brand; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <BrandContext.Provider value={brand}>
        <MantineProvider theme={brandTheme(brand)} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
          {children}
        </MantineProvider>
      </BrandContext.Provider>
    </I18nextProvider>
  );
}
