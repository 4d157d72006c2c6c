/**
 * /administration/organisation: the organisation tabs (departments, tags, projects, feature
 * profiles) on a page of their own, until the account page mounts `organisationTabs` beside its
 * users and settings tabs. The chosen tab is kept in the address (?tab=).
 */
import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { organisationTabs } from '../index';

export function OrganisationPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const current = organisationTabs.find((tab) => tab.id === asked)?.id ?? 'departments';
  return (
    <Tabs value={current} onChange={(value) => value && setParams({ tab: value }, { replace: true })} keepMounted={false}>
      <Tabs.List mb="md">
        {organisationTabs.map((tab) => (
          <Tabs.Tab key={tab.id} value={tab.id}>
            {t(tab.labelKey)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {organisationTabs.map((tab) => (
        <Tabs.Panel key={tab.id} value={tab.id}>
          {tab.element}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
