import { CloseButton, Group, Paper, Text } from '@mantine/core';
import IconSpeakerphone from '@tabler/icons-react/dist/esm/icons/IconSpeakerphone.mjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBrand } from '../../../app/brand-context';
import { parseLanguage, storage } from '../../../app/preferences';
import { useAnnouncement } from '../api/announcement';

const DISMISSED_KEY = 'announcement.dismissed';

/** The dismissible bar under the header. A dismissal holds for that text; a new text shows again. */
export function AnnouncementBar() {
  const { t, i18n } = useTranslation();
  const brand = useBrand();
  const { data: text } = useAnnouncement(parseLanguage(i18n.language) ?? 'en', brand.id);
  const [dismissed, setDismissed] = useState(() => storage.get(DISMISSED_KEY));

  if (!text || text === dismissed) return null;
  return (
    <Paper component="section" aria-label={t('Announcement')} bg="brand.0" withBorder px="md" py="xs" mb="md" radius="md">
      <Group wrap="nowrap" gap="sm" align="center">
        <IconSpeakerphone size={20} stroke={1.6} aria-hidden style={{ flexShrink: 0, color: 'var(--mantine-color-brand-7)' }} />
        <Text size="sm" style={{ flex: 1 }}>
          {text}
        </Text>
        <CloseButton
          aria-label={t('DismissAnnouncement')}
          onClick={() => {
            storage.set(DISMISSED_KEY, text);
            setDismissed(text);
          }}
        />
      </Group>
    </Paper>
  );
}
