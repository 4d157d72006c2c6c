import { Alert } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import { useTranslation } from 'react-i18next';

/** Over the unit list: the followed history link named a unit the user does not have. */
export function HistoryLinkNotice({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Alert variant="light" color="yellow" icon={<IconAlertCircle aria-hidden />} role="alert" withCloseButton closeButtonLabel={t('HistoryCloseNotice')} onClose={onClose} mb="sm">
      {t('HistoryLinkUnitMissing')}
    </Alert>
  );
}
