import { Button } from '@mantine/core';
import IconClockHour4 from '@tabler/icons-react/dist/esm/icons/IconClockHour4.mjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '../app/session';
import { MessageState } from './message-state';

/**
 * The honest state of a page whose feature arrives in a later issue: no fake data, no dead buttons.
 * Public pages get a way back to the login page.
 */
export function NotYetAvailable() {
  const { t } = useTranslation();
  const user = useSessionUser();
  return (
    <MessageState
      icon={<IconClockHour4 size={30} stroke={1.6} />}
      title={t('NotYetAvailableTitle')}
      action={
        user ? null : (
          <Button component={Link} to="/" variant="light">
            {t('BackToLogin')}
          </Button>
        )
      }
    >
      {t('NotYetAvailable')}
    </MessageState>
  );
}
