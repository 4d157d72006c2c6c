/**
 * Route guards of spec section 2. The decisions themselves are pure functions in access.ts; these
 * components only read the session and the settings and render, redirect or refuse.
 */
import { Button } from '@mantine/core';
import type { Settings } from '../../../shared/schemas/system';
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../features/auth/api/settings';
import { NoAccess } from '../ui/no-access';
import { NotFoundPage } from '../ui/not-found-page';
import { PageLoader } from '../ui/page-loader';
import { MessageState } from '../ui/message-state';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import { canSeeAdministration, canSeeSupport, featureRedirect, hasAlertNumbersPage, landingRoute, type Feature } from './access';

/** A logged-in visitor of a public page goes to the landing route (the map, or the trip log without map). */
export function LandingRedirect() {
  const settings = useSettings();
  if (settings.isPending) return <PageLoader />;
  return <Navigate to={landingRoute(settings.data)} replace />;
}

function SettingsError({ retry, message }: { retry: () => void; message: string }) {
  const { t } = useTranslation();
  return (
    <MessageState
      icon={<IconAlertCircle size={30} stroke={1.6} />}
      title={t('SomethingWentWrong')}
      color="red"
      action={<Button onClick={retry}>{t('TryAgain')}</Button>}
    >
      {message}
    </MessageState>
  );
}

/** Renders children once the settings are loaded (spinner meanwhile, an error with retry if they fail). */
export function SettingsGate({ children }: { children: ReactNode }) {
  const settings = useSettings();
  if (settings.isPending) return <PageLoader />;
  if (settings.isError) return <SettingsError retry={() => void settings.refetch()} message={settings.error.message} />;
  return <>{children}</>;
}

/** The settings, inside SettingsGate (where they are known to be loaded). */
export function useLoadedSettings(): Settings {
  const { data } = useSettings();
  if (!data) throw new Error('useLoadedSettings outside SettingsGate');
  return data;
}

export function RequireAdmin() {
  const settings = useLoadedSettings();
  return canSeeAdministration(settings) ? <Outlet /> : <NoAccess />;
}

export function RequireSupport() {
  const settings = useLoadedSettings();
  return canSeeSupport(settings) ? <Outlet /> : <NoAccess messageKey="NoAccessToSupportPages" />;
}

export function RequireFeature({ feature }: { feature: Feature }) {
  const settings = useLoadedSettings();
  const to = featureRedirect(feature, settings);
  return to ? <Navigate to={to} replace /> : <Outlet />;
}

/** Alert numbers exist only for one parent account; for everyone else the route is not there. */
export function RequireAlertNumbersAccount() {
  const settings = useLoadedSettings();
  return hasAlertNumbersPage(settings.ParentID) ? <Outlet /> : <NotFoundPage />;
}
