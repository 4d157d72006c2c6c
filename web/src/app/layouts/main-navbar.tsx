import { AppShell, Avatar, Divider, Group, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import IconBell from '@tabler/icons-react/dist/esm/icons/IconBell.mjs';
import IconKey from '@tabler/icons-react/dist/esm/icons/IconKey.mjs';
import IconCalendarEvent from '@tabler/icons-react/dist/esm/icons/IconCalendarEvent.mjs';
import IconChecklist from '@tabler/icons-react/dist/esm/icons/IconChecklist.mjs';
import IconCirclePlus from '@tabler/icons-react/dist/esm/icons/IconCirclePlus.mjs';
import IconFence from '@tabler/icons-react/dist/esm/icons/IconFence.mjs';
import IconGps from '@tabler/icons-react/dist/esm/icons/IconGps.mjs';
import IconHomeShield from '@tabler/icons-react/dist/esm/icons/IconHomeShield.mjs';
import IconId from '@tabler/icons-react/dist/esm/icons/IconId.mjs';
import IconLayoutDashboard from '@tabler/icons-react/dist/esm/icons/IconLayoutDashboard.mjs';
import IconMap from '@tabler/icons-react/dist/esm/icons/IconMap.mjs';
import IconMapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconReportAnalytics from '@tabler/icons-react/dist/esm/icons/IconReportAnalytics.mjs';
import IconRoute from '@tabler/icons-react/dist/esm/icons/IconRoute.mjs';
import IconUser from '@tabler/icons-react/dist/esm/icons/IconUser.mjs';
import IconSteeringWheel from '@tabler/icons-react/dist/esm/icons/IconSteeringWheel.mjs';
import IconUserCog from '@tabler/icons-react/dist/esm/icons/IconUserCog.mjs';
import IconUsers from '@tabler/icons-react/dist/esm/icons/IconUsers.mjs';
import type { TablerIcon } from '@tabler/icons-react';
import IconLifebuoy from '@tabler/icons-react/dist/esm/icons/IconLifebuoy.mjs';
import IconGauge from '@tabler/icons-react/dist/esm/icons/IconGauge.mjs';
import IconWebhook from '@tabler/icons-react/dist/esm/icons/IconWebhook.mjs';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink as RouterNavLink } from 'react-router';
import { SetPasswordModal } from '../../features/auth/components/set-password-modal';
import { BrandLogo } from '../../ui/brand-logo';
import { menuItems, landingRoute, type MenuItem, type MenuItemId } from '../access';
import { useLoadedSettings } from '../guards';
import { lazyFeature } from '../lazy-feature';
import { useSessionUser } from '../session';

const ProfileModal = lazyFeature('account', () => import('../../features/account/components/profile-modal').then((m) => m.ProfileModal));

const icons: Readonly<Record<MenuItemId, TablerIcon>> = {
  fleetOverview: IconLayoutDashboard,
  map: IconMap,
  triplog: IconRoute,
  myTrips: IconSteeringWheel,
  reports: IconReportAnalytics,
  geofence: IconFence,
  places: IconMapPin,
  unit: IconGps,
  carSchedule: IconCalendarEvent,
  account: IconUsers,
  safeReturnHome: IconHomeShield,
  alarmReceiver: IconBell,
  addUnit: IconCirclePlus,
  rfidCards: IconId,
  attestStatus: IconChecklist,
  apiKeys: IconKey,
  support: IconLifebuoy,
  webVitals: IconGauge,
  webhooks: IconWebhook,
};

function MenuLink({ item, onNavigate }: { item: MenuItem; onNavigate: () => void }) {
  const { t } = useTranslation();
  const Icon = icons[item.id];
  return (
    <NavLink
      component={RouterNavLink}
      to={item.path}
      // The reports live under the trip log's address; only one of the two is the current page.
      end={item.id === 'triplog'}
      label={t(item.labelKey)}
      leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
      onClick={onNavigate}
      styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
    />
  );
}

/**
 * Logo, menu driven by the account's feature flags, and the user: the avatar opens set-new-password
 * (spec section 2), "My profile" the profile (its code and texts load on first use).
 */
export function MainNavbar({ id, onNavigate, inert }: { id: string; onNavigate: () => void; inert: boolean }) {
  const { t } = useTranslation();
  const settings = useLoadedSettings();
  const user = useSessionUser();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const items = menuItems(settings);
  const main = items.filter((i) => i.section === 'main');
  const admin = items.filter((i) => i.section === 'administration');
  const fullName = user ? `${user.FirstName} ${user.LastName}`.trim() || user.Email : '';

  return (
    <AppShell.Navbar id={id} p="sm" aria-label={t('MainNavigation')} inert={inert}>
      <AppShell.Section px="xs" py="sm">
        <Link to={landingRoute(settings)} onClick={onNavigate} style={{ display: 'inline-block' }}>
          <BrandLogo height={34} />
        </Link>
      </AppShell.Section>
      <AppShell.Section grow component={ScrollArea} type="auto">
        <Stack gap={2} py="xs">
          {main.map((item) => (
            <MenuLink key={item.id} item={item} onNavigate={onNavigate} />
          ))}
        </Stack>
        {admin.length > 0 ? (
          <Stack gap={2} pb="xs" role="group" aria-labelledby="nav-administration">
            <Divider my="xs" />
            <Text id="nav-administration" size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={4}>
              {t('Administration')}
            </Text>
            {admin.map((item) => (
              <MenuLink key={item.id} item={item} onNavigate={onNavigate} />
            ))}
          </Stack>
        ) : null}
      </AppShell.Section>
      {user ? (
        <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <UnstyledButton
            onClick={() => setPasswordOpen(true)}
            aria-label={t('ChangePasswordFor', { name: fullName })}
            aria-haspopup="dialog"
            p="xs"
            w="100%"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            <Group wrap="nowrap" gap="sm">
              {/* An icon, not initials: visible letters would have to be part of the button's name. */}
              <Avatar color="brand" radius="xl" aria-hidden>
                <IconUser size={22} stroke={1.7} />
              </Avatar>
              <Text size="sm" fw={600} truncate>
                {fullName}
              </Text>
            </Group>
          </UnstyledButton>
          <NavLink
            component="button"
            label={t('MyProfile')}
            leftSection={<IconUserCog size={20} stroke={1.6} aria-hidden />}
            onClick={() => setProfileOpen(true)}
            aria-haspopup="dialog"
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
          />
          <SetPasswordModal user={user} opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
          {profileOpen ? (
            <Suspense fallback={null}>
              <ProfileModal opened onClose={() => setProfileOpen(false)} />
            </Suspense>
          ) : null}
        </AppShell.Section>
      ) : null}
    </AppShell.Navbar>
  );
}
