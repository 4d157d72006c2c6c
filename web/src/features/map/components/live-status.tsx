import { Group, Paper, Text } from '@mantine/core';
import IconCloudOff from '@tabler/icons-react/dist/esm/icons/IconCloudOff.mjs';
import IconCloudCheck from '@tabler/icons-react/dist/esm/icons/IconCloudCheck.mjs';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LiveStatus } from '../../../app/live/use-live';

/** How long "Live updates are back" stays after a reconnection. */
const BACK_MS = 4_000;

/**
 * Says so over the map while the live channel is down, and briefly when it is back. The live region
 * is always there, so screen readers announce both changes.
 */
export const LiveStatusNotice = memo(function LiveStatusNotice({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  const [back, setBack] = useState(false);
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status !== 'online' || was !== 'offline') {
      setBack(false);
      return;
    }
    setBack(true);
    const id = setTimeout(() => setBack(false), BACK_MS);
    return () => clearTimeout(id);
  }, [status]);

  const offline = status === 'offline';
  const shown = offline || back;
  return (
    <div className="rt-live-status" role="status" aria-live="polite" data-live-status={status}>
      {shown ? (
        <Paper shadow="md" radius="xl" px="md" py={6} withBorder bg={offline ? 'red.0' : 'green.0'} c="gray.9" bd={offline ? '1px solid red.3' : '1px solid green.4'}>
          <Group gap={8} wrap="nowrap">
            {offline ? (
              <IconCloudOff size={18} color="var(--mantine-color-red-8)" aria-hidden />
            ) : (
              <IconCloudCheck size={18} color="var(--mantine-color-green-8)" aria-hidden />
            )}
            <Text size="sm" fw={600}>
              {offline ? t('MapLiveOffline') : t('MapLiveBack')}
            </Text>
          </Group>
        </Paper>
      ) : null}
    </div>
  );
});
