import { AppShell, Burger, Button, Group, Title } from '@mantine/core';
import IconLogout from '@tabler/icons-react/dist/esm/icons/IconLogout.mjs';
import IconMail from '@tabler/icons-react/dist/esm/icons/IconMail.mjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../../features/auth/api/session-calls';
import { LanguagePicker } from '../../ui/language-picker';
import { useBrand } from '../brand-context';
import { paths } from '../paths';
import { usePageTitleKey } from '../use-page-title';

interface MainHeaderProps {
  navbarId: string;
  navbarOpen: boolean;
  toggleNavbar: () => void;
}

/** Burger (below 1025 px), page title, support mail (brands 0, 2, 3), language, log-out. */
export function MainHeader({ navbarId, navbarOpen, toggleNavbar }: MainHeaderProps) {
  const { t } = useTranslation();
  const brand = useBrand();
  const navigate = useNavigate();
  const titleKey = usePageTitleKey();

  return (
    <AppShell.Header px="md">
      <Group h="100%" gap="sm" wrap="nowrap" justify="space-between">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Burger
            className="shell-burger"
            opened={navbarOpen}
            onClick={toggleNavbar}
            size="sm"
            aria-label={navbarOpen ? t('CloseMenu') : t('OpenMenu')}
            aria-expanded={navbarOpen}
            aria-controls={navbarId}
          />
          <Title order={1} size="h4" fw={650} className="shell-title">
            {t(titleKey)}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
          {brand.supportEmail ? (
            <Button
              component="a"
              href={`mailto:${brand.supportEmail}`}
              variant="subtle"
              px="xs"
              leftSection={<IconMail size={18} stroke={1.7} aria-hidden />}
              aria-label={t('SupportMailLabel', { email: brand.supportEmail })}
              styles={{ section: { marginInlineEnd: 0 } }}
            >
              <span className="shell-wide-only" style={{ marginInlineStart: 6 }}>
                {t('Support')}
              </span>
            </Button>
          ) : null}
          <LanguagePicker compact />
          <Button
            variant="subtle"
            color="gray"
            px="xs"
            leftSection={<IconLogout size={18} stroke={1.7} aria-hidden />}
            styles={{ section: { marginInlineEnd: 0 } }}
            aria-label={t('LogOut')}
            onClick={async () => {
              await logout();
              await navigate(paths.login, { replace: true });
            }}
          >
            <span className="shell-wide-only" style={{ marginInlineStart: 6 }}>
              {t('LogOut')}
            </span>
          </Button>
        </Group>
      </Group>
    </AppShell.Header>
  );
}
