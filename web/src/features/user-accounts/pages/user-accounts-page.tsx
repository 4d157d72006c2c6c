/**
 * /administration/user-accounts (spec sections 2, 3, 5, 6 and 8): the account administration as
 * tabs. The tabs are the list below, in display order: another part of the administration becomes
 * a tab by adding one entry ({ id, labelKey, element }). The open tab is kept in the address
 * (`?tab=`), so a reload or a link opens it again.
 */
import { Stack, Tabs, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { organisationTabs } from '../../organisation';
import { SettingsTab } from '../components/settings-tab';
import { UsersTab } from '../components/users-tab';

export interface AccountTab {
  readonly id: string;
  /** i18n key of the tab's label. */
  readonly labelKey: string;
  readonly element: ReactNode;
}

export const accountTabs: readonly AccountTab[] = [
  { id: 'users', labelKey: 'UaTabUsers', element: <UsersTab /> },
  { id: 'settings', labelKey: 'UaTabSettings', element: <SettingsTab /> },
  // Departments, tags, projects and feature profiles (web/src/features/organisation).
  ...organisationTabs,
];

export function UserAccountsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const active = accountTabs.some((tab) => tab.id === requested) ? (requested as string) : (accountTabs[0]?.id ?? 'users');
  const open = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams();
        if (id && id !== accountTabs[0]?.id) next.set('tab', id);
        // The users' search belongs to the users tab only.
        if (id === 'users' && current.get('q')) next.set('q', current.get('q') as string);
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="md">
      <Text maw={760}>{t('UaPageIntro')}</Text>
      <Tabs value={active} onChange={open} keepMounted={false}>
        <Tabs.List aria-label={t('UaTabsLabel')}>
          {accountTabs.map((tab) => (
            <Tabs.Tab key={tab.id} value={tab.id}>
              {t(tab.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {accountTabs.map((tab) => (
          <Tabs.Panel key={tab.id} value={tab.id} pt="md">
            {tab.element}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
