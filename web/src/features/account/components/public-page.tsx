import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The heading and intro of a public account page, inside the public layout's card. */
export function PublicPage({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md">
      <Title order={1} size="h2" ta="center">
        {title}
      </Title>
      {intro ? (
        <Text size="sm" ta="center">
          {intro}
        </Text>
      ) : null}
      {children}
    </Stack>
  );
}
