/**
 * The printable theft report (spec section 2): the unit's identity, its object description and
 * the theft info and the last known position (time, address and coordinates, which the police can
 * act on), laid out for paper (print CSS hides the buttons). A unit locked against the reader has
 * no position to show, and says so.
 */
import { Button, Group, Title } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { UnitEditor } from '../../../../../shared/schemas/unit-editor';
import { intlLocale } from '../../../i18n/i18n';
import { vehicleTypeLabel } from '../../units/unit-list';
import { useReverseGeocode } from '../../map/api/map-api';
import { formatCoordinates } from '../../../ui/coordinates';
import { absoluteTime } from '../../../ui/relative-time';
import { parseLanguage } from '../../../app/preferences';
import { defaultPhoneCountry, formatPhone } from '../../../../../shared/validators/phone';

function Fields({ rows }: { rows: Array<[string, string]> }) {
  return (
    <dl>
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value || '-'}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

export function TheftReport({ unit }: { unit: UnitEditor }) {
  const { t, i18n } = useTranslation();
  const d = unit.objectDescription;
  const theft = unit.theft;
  const last = unit.realtime.state;
  const address = useReverseGeocode(last ? { lat: last.lat, lon: last.lon } : null);
  return (
    <article className="theft-report" aria-labelledby="theft-report-title">
      <Group className="theft-report-actions" justify="flex-end" mb="md">
        <Button onClick={() => window.print()}>{t('UnitEditorPrint')}</Button>
      </Group>
      <Title order={2} size="h2" id="theft-report-title" mb="md">
        {t('UnitEditorTheftReportTitle', { name: unit.name })}
      </Title>
      <Title order={3} size="h4" mb="xs">
        {t('UnitEditorTheftReportUnit')}
      </Title>
      <Fields
        rows={[
          [t('UnitEditorName'), unit.name],
          [t('UnitEditorRegistrationNumber'), unit.registrationNumber ?? ''],
          ['IMEI', unit.imei],
          [t('UnitEditorVehicleType'), vehicleTypeLabel(t, unit.vehicleType)],
        ]}
      />
      <Title order={3} size="h4" mb="xs">
        {t('UnitEditorObjectDescription')}
      </Title>
      <Fields
        rows={[
          [t('UnitEditor_manufacturer'), d.manufacturer],
          [t('UnitEditor_model'), d.model],
          [t('UnitEditor_year'), d.year === null ? '' : String(d.year)],
          [t('UnitEditor_hullNumber'), d.hullNumber],
          [t('UnitEditor_motorNumber'), d.motorNumber],
          [t('UnitEditor_chassisNumber'), d.chassisNumber],
          [t('UnitEditor_insuranceCompany'), d.insuranceCompany],
          [t('UnitEditor_insuranceNumber'), d.insuranceNumber],
          [t('UnitEditorLinks'), d.links.join(', ')],
        ]}
      />
      <Title order={3} size="h4" mb="xs">
        {t('UnitEditorTheftInfo')}
      </Title>
      <Fields
        rows={[
          [t('UnitEditorTheft_date'), theft.date ? new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${theft.date}T00:00:00Z`)) : ''],
          [t('UnitEditorTheft_place'), theft.place],
          [t('UnitEditorTheft_policeStation'), theft.policeStation],
          [t('UnitEditorTheft_reportNumber'), theft.reportNumber],
          [t('UnitEditorTheft_claimNumber'), theft.claimNumber],
          [t('UnitEditorTheft_ownerName'), theft.ownerName],
          [t('UnitEditorTheft_ownerEmail'), theft.ownerEmail],
          [t('UnitEditorTheft_ownerPhone'), theft.ownerPhone ? formatPhone(theft.ownerPhone, defaultPhoneCountry(parseLanguage(i18n.language) ?? undefined)) : ''],
          [t('UnitEditorTheft_otherInfo'), theft.otherInfo],
        ]}
      />
      <Title order={3} size="h4" mb="xs">
        {t('UnitEditorTheftLastPosition')}
      </Title>
      <Fields
        rows={
          last
            ? [
                [t('UnitEditorTheftLastPositionTime'), absoluteTime(last.ts, intlLocale(), { seconds: true })],
                [t('UnitEditorTheftLastPositionAddress'), address.data?.address ?? ''],
                [t('UnitEditorTheftLastPositionCoordinates'), formatCoordinates(last.lat, last.lon)],
              ]
            : [[t('UnitEditorTheftLastPosition'), unit.realtime.lockedBy ? t('UnitEditorTheftLastPositionLocked', { lockedBy: unit.realtime.lockedBy }) : t('UnitEditorTheftLastPositionNone')]]
        }
      />
    </article>
  );
}
