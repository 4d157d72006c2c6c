import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface MessageStateProps {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  /** A link or button under the text. */
  action?: ReactNode;
  color?: string;
}

/** A page-level message: an icon, a heading and a sentence (not found, no access, not yet available). */
export function MessageState({ icon, title, children, action, color = 'brand' }: MessageStateProps) {
  return (
    <Stack align="center" gap="sm" py="xl" px="md" ta="center" maw={520} mx="auto">
      <ThemeIcon size={56} radius="xl" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      <Title order={2} size="h3">
        {title}
      </Title>
      {children ? <Text c="dimmed">{children}</Text> : null}
      {action}
    </Stack>
  );
}
