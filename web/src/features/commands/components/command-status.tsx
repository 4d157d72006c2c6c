import { Box, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Command } from '../../../../../shared/schemas/commands';
import { intlLocale } from '../../../i18n/i18n';
import { commandText, effectiveStatus, statusColor, statusText, type Text as CommandText } from '../command-state';
import { absoluteTime, relativeTime } from '../../../ui/relative-time';

/** Translates a command text, its key-valued variables first. */
export function useCommandText(): (text: CommandText) => string {
  const { t } = useTranslation();
  return useCallback(
    (text: CommandText) => {
      const vars = Object.fromEntries(
        Object.entries(text.vars ?? {}).map(([name, value]) => [name, typeof value === 'object' ? t(value.key) : value]),
      );
      return t(text.key, vars);
    },
    [t],
  );
}

/** A command and its state, with a colour dot that repeats what the words say. */
export function CommandStatus({ command, now }: { command: Command; now: number }) {
  const { i18n } = useTranslation();
  const text = useCommandText();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const status = effectiveStatus(command, now);
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-status={status}>
      <Box
        aria-hidden
        mt={6}
        w={10}
        h={10}
        style={{ flex: 'none', borderRadius: '50%', background: `var(--mantine-color-${statusColor[status]}-filled)` }}
      />
      <Stack gap={0}>
        <Text size="sm" fw={500}>
          {text(commandText(command))}{' '}
          <Text span size="xs" c="dimmed">
            · <time dateTime={command.createdAt} title={absoluteTime(command.createdAt, locale, { seconds: true })}>{relativeTime(command.createdAt, now, locale, { seconds: true })}</time>
          </Text>
        </Text>
        <Text size="sm">{text(statusText(command, now))}</Text>
      </Stack>
    </Group>
  );
}

/** The unit's latest commands, newest first. */
export function RecentCommands({ commands, now, headingId }: { commands: readonly Command[]; now: number; headingId: string }) {
  const { t } = useTranslation();
  return (
    <Stack component="section" gap="xs" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('CommandsRecent')}
      </Title>
      {commands.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('CommandsNone')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {commands.map((command) => (
            <li key={command.id}>
              <CommandStatus command={command} now={now} />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
