import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import { useTranslation } from 'react-i18next';
import { MessageState } from './message-state';

/** What a non-admin sees on an administration page (or, with its key, anyone else on a page not theirs). */
export function NoAccess({ messageKey = 'NoAccessToAdministratorPages' }: { messageKey?: 'NoAccessToAdministratorPages' | 'NoAccessToSupportPages' }) {
  const { t } = useTranslation();
  return (
    <MessageState icon={<IconLock size={30} stroke={1.6} />} title={t('NoAccessTitle')} color="red">
      {t(messageKey)}
    </MessageState>
  );
}
