import { Button } from '@mantine/core';
import IconMapPinQuestion from '@tabler/icons-react/dist/esm/icons/IconMapPinQuestion.mjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MessageState } from './message-state';

/** Catch-all for `/*`, `/user/*` and `/administration/*`. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <MessageState
      icon={<IconMapPinQuestion size={30} stroke={1.6} />}
      title={t('PageNotFoundTitle')}
      action={
        <Button component={Link} to="/" variant="light">
          {t('GoToStartPage')}
        </Button>
      }
    >
      {t('PageNotFound')}
    </MessageState>
  );
}
