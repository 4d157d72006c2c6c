import { Box, Container, Group, Paper, Text } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { BrandLogo } from '../../ui/brand-logo';
import { PageLoader } from '../../ui/page-loader';
import { LanguagePicker } from '../../ui/language-picker';
import { MAIN_CONTENT_ID, SkipLink } from '../../ui/skip-link';
import { useBrand } from '../brand-context';

/** Login, registration, password reset...: the brand's logo on a card, a language picker, no menu. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const brand = useBrand();
  return (
    <div className="public-shell">
      <SkipLink />
      <Box component="header" px="md" py="sm">
        <Group justify="flex-end">
          <LanguagePicker />
        </Group>
      </Box>
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} style={{ flex: 1 }} px="md" pb="xl">
        <Container size={440} px={0}>
          <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
            <Group justify="center" mb="lg">
              <BrandLogo height={44} />
            </Group>
            <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
          </Paper>
        </Container>
      </Box>
      <Box component="footer" py="md">
        <Text size="sm" c="dimmed" ta="center">
          {t('AllRightsReserved', { year: new Date().getFullYear(), brand: brand.title })}
        </Text>
      </Box>
    </div>
  );
}
