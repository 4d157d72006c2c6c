/**
 * A searchable checkbox list with 'select all shown' (the unit and user pickers of departments,
 * tags and feature profiles): a fieldset with its legend, a search box and a scrolling list.
 */
import { Box, Checkbox, Fieldset, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchingItems, toggleShown, type PickItem } from '../pick-list';

interface Props {
  legend: string;
  searchLabel: string;
  items: readonly PickItem[];
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string | undefined;
}

export function PickListField({ legend, searchLabel, items, selected, onChange, error }: Props) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => matchingItems(items, search, i18n.language), [items, search, i18n.language]);
  const allOn = shown.length > 0 && shown.every((i) => selected.has(i.id));
  const someOn = shown.some((i) => selected.has(i.id));
  const errorId = useId();
  return (
    <Fieldset legend={legend} variant="unstyled" aria-describedby={error ? errorId : undefined}>
      <Stack gap="xs">
        <TextInput
          label={searchLabel}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          type="search"
        />
        <Checkbox
          label={t('OrgSelectAllShown')}
          checked={allOn}
          indeterminate={!allOn && someOn}
          disabled={shown.length === 0}
          onChange={() => onChange(toggleShown(selected, shown))}
        />
        <ScrollArea.Autosize mah={220} type="auto" offsetScrollbars>
          {shown.length === 0 ? (
            <Text size="sm" c="dimmed" py="xs">
              {t('OrgNoMatches')}
            </Text>
          ) : (
            <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {shown.map((item) => (
                <Box component="li" key={item.id}>
                  <Checkbox
                    label={item.label}
                    description={item.detail}
                    checked={selected.has(item.id)}
                    onChange={(e) => {
                      const next = new Set(selected);
                      if (e.currentTarget.checked) next.add(item.id);
                      else next.delete(item.id);
                      onChange(next);
                    }}
                  />
                </Box>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        {error ? (
          <Text id={errorId} size="sm" c="red.8" role="alert">
            {error}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
