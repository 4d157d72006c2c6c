import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import IconMail from '@tabler/icons-react/dist/esm/icons/IconMail.mjs';
import IconPhone from '@tabler/icons-react/dist/esm/icons/IconPhone.mjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { useContactAddresses } from '../api/contact-addresses';
import { PublicPage } from '../components/public-page';

/** A dialable `tel:` address: digits and a leading plus only. */
function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/**
 * /account/deletion: there is no self-service deletion (a decision of the product); the user contacts the
 * provider, whose e-mail and phone come from the brand's contact addresses.
 */
export function AccountDeletionPage() {
  const { t } = useTranslation();
  const brand = useBrand();
  const contact = useContactAddresses(brand.id);

  return (
    <PublicPage title={t('AccountDeletionTitle')} intro={t('AccountDeletionIntro', { brand: brand.title })}>
      {contact.isPending ? (
        <Group justify="center" py="md" role="status" aria-live="polite">
          <Loader size="sm" role="progressbar" aria-label={t('Loading')} />
        </Group>
      ) : contact.isError ? (
        <Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(contact.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void contact.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
      ) : contact.data.email || contact.data.phonelbl ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text fw={600}>{t('ContactUs')}</Text>
            {contact.data.email ? (
              <Group gap="xs" wrap="nowrap">
                <IconMail size={20} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
                <Anchor href={`mailto:${contact.data.email}`} style={{ overflowWrap: 'anywhere' }}>
                  {contact.data.email}
                </Anchor>
              </Group>
            ) : null}
            {contact.data.phonelbl ? (
              <Group gap="xs" wrap="nowrap">
                <IconPhone size={20} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
                <Anchor href={telHref(contact.data.phonelbl)}>{contact.data.phonelbl}</Anchor>
              </Group>
            ) : null}
          </Stack>
        </Paper>
      ) : (
        <Text size="sm">{t('NoContactAddress')}</Text>
      )}
      <Group justify="center">
        <Button component={Link} to={paths.login} variant="subtle">
          {t('BackToLogin')}
        </Button>
      </Group>
    </PublicPage>
  );
}
