/**
 * Address search for the map editors (geofences, places): a search field; Enter or the button asks
 * /api/v1/user/geocode/search and lists the answers as buttons; picking one hands it to `onPick`
 * (the editor centres its map there). Keyboard: type, Enter, Tab to an answer, Enter.
 */
import { Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import IconMapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GEOCODE_QUERY_MAX, type GeocodeResult } from '../../../../../shared/schemas/geofences';
import { errorMessage } from '../../../app/api-client';
import { useAddressSearch } from '../api/geofence-api';

export interface AddressSearchProps {
  onPick: (a: { label: string; lat: number; lon: number }) => void;
  /** The field's label; default "Search for an address or place". */
  label?: string;
  /** Prefer answers near this point (the map's centre). */
  near?: { lat: number; lon: number } | null;
}

export function AddressSearch({ onPick, label, near = null }: AddressSearchProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const search = useAddressSearch(asked, near);
  const listId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const q = text.trim();
    setAsked(q === '' ? null : q);
  };
  const pick = (result: GeocodeResult) => {
    onPick(result);
    setText(result.label);
    setAsked(null);
  };

  const results = asked !== null ? search.data : undefined;
  return (
    // A form of its own inside the editor's form would be invalid HTML: a search landmark div whose Enter is handled here.
    <div role="search" className="geo-address-search">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          type="search"
          style={{ flex: 1 }}
          label={label ?? t('GeoEditorAddressLabel')}
          placeholder={t('GeoEditorAddressPlaceholder')}
          value={text}
          maxLength={GEOCODE_QUERY_MAX}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit(event);
          }}
          aria-controls={results ? listId : undefined}
          leftSection={<IconSearch size={16} aria-hidden />}
        />
        <Button type="button" variant="default" onClick={submit} loading={search.isFetching} data-testid="address-search-button">
          {t('GeoEditorAddressSearch')}
        </Button>
      </Group>
      <div role="status" aria-live="polite">
        {search.isError && asked !== null ? (
          <Text size="sm" c="var(--mantine-color-error)">
            {errorMessage(search.error)}
          </Text>
        ) : results && results.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('GeoEditorAddressNone')}
          </Text>
        ) : results ? (
          <Text size="sm" className="geo-visually-hidden">
            {t('GeoEditorAddressFound', { count: results.length })}
          </Text>
        ) : null}
      </div>
      {results && results.length > 0 ? (
        <Stack component="ul" id={listId} gap={2} className="geo-address-results" aria-label={t('GeoEditorAddressResults')}>
          {results.map((result, i) => (
            <li key={`${result.label}-${i}`}>
              <UnstyledButton className="geo-address-result" onClick={() => pick(result)} data-testid="address-result">
                <Group gap={6} wrap="nowrap">
                  <IconMapPin size={16} aria-hidden />
                  <Text size="sm">{result.label}</Text>
                </Group>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      ) : null}
    </div>
  );
}
