import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A centred spinner that screen readers announce as loading. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih={200} p="xl" role="status" aria-live="polite">
      <Loader aria-label={t('Loading')} />
    </Center>
  );
}
