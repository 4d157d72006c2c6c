/**
 * The home of a unit (spec sections 2, 5, 8 and 9): the address search (GET /user/geocode/search),
 * a map with the radius circle (the geofences' circle editor: click, drag or the keyboard), the
 * radius (at least 300 m, 300 by default) and the address that is saved. The map starts at the
 * unit's latest position, or in Stockholm when it has none; a failed position read says so.
 */
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SAFE_HOME_ADDRESS_MAX, SAFE_HOME_RADIUS_DEFAULT_M, SAFE_HOME_RADIUS_MAX_M, SAFE_HOME_RADIUS_MIN_M, type SafeHomeItem } from '../../../../../shared/schemas/safe-home';
import { ApiError, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { AddressSearch } from '../../geofences/components/address-search';
import { CircleEditor } from '../../geofences/components/circle-editor';
import type { LatLon } from '../../geofences/circle';
import { useLatestPosition, useSaveHome } from '../api/safe-home-api';

interface Props {
  item: SafeHomeItem | null;
  onClose: () => void;
  onSaved: (key: string) => void;
}

export function HomeModal({ item, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={item !== null} onClose={onClose} title={item ? t('SafeHomeHomeTitle', { name: item.name }) : ''} size="xl" closeButtonProps={{ 'aria-label': t('Cancel') }}>
      {item ? <HomeForm key={item.imei} item={item} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function HomeForm({ item, onClose, onSaved }: { item: SafeHomeItem; onClose: () => void; onSaved: (key: string) => void }) {
  const { t } = useTranslation();
  const hasHome = item.centerLat !== null && item.centerLng !== null;
  // Without a home, the map starts where the unit is (its latest position); with one, at the home.
  const position = useLatestPosition(hasHome ? null : item.imei);
  const [center, setCenter] = useState<LatLon | null>(hasHome ? { lat: item.centerLat as number, lon: item.centerLng as number } : null);
  const [radius, setRadius] = useState<number>(item.radius || SAFE_HOME_RADIUS_DEFAULT_M);
  const [address, setAddress] = useState(item.address ?? '');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useSaveHome();

  if (!hasHome && position.isPending) return null;
  const start = hasHome ? null : position.data ? { lat: position.data.Latitude, lon: position.data.Longitude } : null;

  const submit = () => {
    const next: Record<string, string | undefined> = {};
    if (!address.trim()) next['address'] = 'SafeReturnHomeAddrEmpty';
    if (!Number.isFinite(radius) || radius < SAFE_HOME_RADIUS_MIN_M) next['radius'] = 'RadiusLessThan300';
    else if (radius > SAFE_HOME_RADIUS_MAX_M) next['radius'] = 'RadiusTooLarge';
    if (!center) next['center'] = 'SafeHomePlaceCenter';
    setErrors(next);
    if (Object.keys(next).length || !center) return;
    save.mutate(
      { imei: item.imei, body: { radius, centerLat: center.lat, centerLng: center.lon, address: address.trim() } },
      {
        onSuccess: () => onSaved('HomeAddressUpdateMsg'),
        onError: (error) => {
          if (error instanceof ApiError && Object.keys(error.fieldErrors).length) {
            const fe = error.fieldErrors;
            setErrors({ address: fe['address']?.[0], radius: fe['radius']?.[0], center: fe['centerLat']?.[0] ?? fe['centerLng']?.[0] });
          }
        },
      },
    );
  };

  const serverOnly = save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length);
  return (
    <Stack gap="sm">
      {position.isError ? (
        <Alert color="orange" role="alert">
          {t('ErrorFetchingLocation')}
        </Alert>
      ) : null}
      <AddressSearch
        near={center ?? start}
        onPick={(found) => {
          setCenter({ lat: found.lat, lon: found.lon });
          setAddress(found.label);
          setErrors((e) => ({ ...e, address: undefined, center: undefined }));
        }}
      />
      <CircleEditor
        center={center}
        initialCenter={start}
        radius={radius}
        minRadius={SAFE_HOME_RADIUS_MIN_M}
        maxRadius={SAFE_HOME_RADIUS_MAX_M}
        onChange={(v) => {
          setCenter(v.center);
          setRadius(v.radius);
        }}
        label={t('SafeHomeMapLabel', { name: item.name })}
        radiusLabel={t('SafeHomeRadiusLabel')}
        radiusError={fieldErrorText(errors['radius'])}
        centerError={fieldErrorText(errors['center'])}
        color="#2f9e44"
      />
      <TextInput
        label={t('SafeHomeAddressLabel')}
        description={t('SafeHomeAddressHint')}
        value={address}
        maxLength={SAFE_HOME_ADDRESS_MAX}
        onChange={(e) => setAddress(e.currentTarget.value)}
        error={fieldErrorText(errors['address'])}
        required
        data-testid="safe-home-address"
      />
      {serverOnly ? (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {t('Save')}
        </Button>
      </Group>
    </Stack>
  );
}
