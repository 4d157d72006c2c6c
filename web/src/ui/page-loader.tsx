import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A centred spinner that screen readers announce as loading. Mantine's Loader is a span without a
 * role, where an aria-label alone is not permitted: every spinner is an indeterminate progress bar.
 */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih={200} p="xl" role="status" aria-live="polite">
      <Loader role="progressbar" aria-label={t('Loading')} />
    </Center>
  );
}
