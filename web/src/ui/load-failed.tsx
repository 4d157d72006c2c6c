import { Alert, Button, Stack } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../app/api-client';

interface LoadFailedProps {
  /** What could not be loaded, translated. */
  title: string;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
}

/** A page's data that could not be loaded: what, why (the server's message), and Try again. */
export function LoadFailed({ title, error, onRetry, retrying }: LoadFailedProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={title} maw={640}>
      <Stack gap="sm" align="flex-start">
        <span>{errorMessage(error)}</span>
        <Button variant="default" size="xs" onClick={onRetry} loading={retrying}>
          {t('TryAgain')}
        </Button>
      </Stack>
    </Alert>
  );
}
