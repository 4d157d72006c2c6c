/**
 * The unit editor as routed (/user/edit-terminal?imei=...): the editor's own sections plus those of
 * the features that keep their own data about a unit: its pictures, its Bluetooth sensors and its
 * access lock. Each of them loads and saves through its own API.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { UnitSensors } from '../../sensors/components/unit-sensors';
import { UnitImages } from '../../unit-images/components/unit-images';
import { UnitLock } from '../../unit-lock/components/unit-lock';
import { UnitEditorPage } from './unit-editor-page';

export function UnitEditorRoute() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const imei = search.get('imei');
  const sections = useMemo(
    () =>
      imei === null
        ? []
        : [
            { id: 'pictures', title: t('unitImagesTitle'), element: <UnitImages imei={imei} /> },
            { id: 'sensors', title: t('SensorsTitle'), element: <UnitSensors imei={imei} /> },
            { id: 'lock', title: t('LockTitle'), element: <UnitLock imei={imei} titled={false} /> },
          ],
    [imei, t],
  );
  return <UnitEditorPage extraSections={sections} />;
}
