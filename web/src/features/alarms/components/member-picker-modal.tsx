/**
 * Modal 5 of spec section 2: choose a user of the account (name, e-mail) who is not an alarm
 * receiver yet; none left shows the no-records message. Choosing one fills the form.
 */
import { Alert, Button, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmMember } from '../../../../../shared/schemas/alarms';
import { errorMessage } from '../../../app/api-client';
import { PageLoader } from '../../../ui/page-loader';
import { useAlarmMembers } from '../api/alarms-api';
import { EmailText } from './email-text';

interface Props {
  opened: boolean;
  onClose: () => void;
  onPick: (member: AlarmMember) => void;
}

export function MemberPickerModal({ opened, onClose, onPick }: Props) {
  const { t } = useTranslation();
  const members = useAlarmMembers(opened);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = members.data?.members ?? [];
    return q ? all.filter((m) => `${m.FirstName} ${m.LastName} ${m.Email}`.toLowerCase().includes(q)) : all;
  }, [members.data, query]);

  return (
    <Modal opened={opened} onClose={onClose} title={t('AlarmPickUserTitle')} size="lg" closeButtonProps={{ 'aria-label': t('AlarmClose') }}>
      {members.isPending ? (
        <PageLoader />
      ) : members.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(members.error)}
        </Alert>
      ) : members.data.members.length === 0 ? (
        <Text c="dimmed" py="md">
          {t('AlarmPickUserNone')}
        </Text>
      ) : (
        <Stack gap="sm">
          <TextInput
            aria-label={t('AlarmPickUserSearch')}
            placeholder={t('AlarmPickUserSearch')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            type="search"
            data-autofocus
          />
          <ScrollArea.Autosize mah={360} type="auto">
            <Table verticalSpacing={6} highlightOnHover aria-label={t('AlarmPickUserTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('AlarmPickUserColName')}</Table.Th>
                  <Table.Th scope="col">{t('AlarmPickUserColEmail')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((m) => {
                  const name = `${m.FirstName} ${m.LastName}`.trim();
                  return (
                    <Table.Tr key={m.ID}>
                      <Table.Td>
                        <Button variant="subtle" size="compact-sm" px={4} onClick={() => onPick(m)} aria-label={t('AlarmPickUserChoose', { name })}>
                          {name}
                        </Button>
                      </Table.Td>
                      <Table.Td>
                        <EmailText email={m.Email} />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Modal>
  );
}
