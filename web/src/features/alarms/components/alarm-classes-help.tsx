/** Which events are security alarms and which function alarms (shared/alarm-classes.ts), on the screen. */
import { Accordion, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { alarmClassTable } from '../../../../../shared/alarm-classes';

export function AlarmClassesHelp() {
  const { t } = useTranslation();
  return (
    <Accordion variant="separated" radius="md">
      <Accordion.Item value="classes">
        <Accordion.Control>{t('AlarmClassesTitle')}</Accordion.Control>
        <Accordion.Panel>
          <Text size="sm" c="dimmed" mb="sm">
            {t('AlarmClassesIntro')}
          </Text>
          <Table verticalSpacing={6} aria-label={t('AlarmClassesTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('AlarmClassesColEvent')}</Table.Th>
                <Table.Th scope="col">{t('AlarmClassesColType')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {alarmClassTable.map((entry) => (
                <Table.Tr key={entry.eventType}>
                  <Table.Td>{t(entry.descriptionKey)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600} c={entry.alarmClass === 'security' ? 'red.9' : 'blue.9'} style={{ whiteSpace: 'nowrap' }}>
                      {entry.alarmClass === 'security' ? t('AlarmClassSecurity') : t('AlarmClassFunction')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
