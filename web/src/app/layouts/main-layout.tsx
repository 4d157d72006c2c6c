import '@mantine/notifications/styles.css';
import { AppShell } from '@mantine/core';
import { useDisclosure, useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { AnnouncementBar } from '../../features/announcements/components/announcement-bar';
import { UpdatePrompt } from '../../pwa/update-prompt';
import { PageLoader } from '../../ui/page-loader';
import { MAIN_CONTENT_ID, SkipLink } from '../../ui/skip-link';
import { MainHeader } from './main-header';
import { MainNavbar } from './main-navbar';

/** Width at and above which the sidebar is always shown (spec: the menu collapses below 1025 px). */
export const SIDEBAR_BREAKPOINT_PX = 1025;
const NAVBAR_ID = 'main-navbar';

/** The logged-in shell: header, sidebar, announcement bar and the page. */
export function MainLayout() {
  const [navbarOpen, { toggle, close }] = useDisclosure(false);
  const narrow = useMediaQuery(`(max-width: ${SIDEBAR_BREAKPOINT_PX - 0.1}px)`) ?? false;
  // The theme's respectReducedMotion reaches Mantine's transitions, not the shell's own CSS ones:
  // the sidebar sliding in on a phone and the shell's 200 ms resize after a turn of the device.
  const reduceMotion = useReducedMotion(undefined, { getInitialValueInEffect: false });
  return (
    <>
      <SkipLink />
      <Notifications position="top-right" />
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 264, breakpoint: SIDEBAR_BREAKPOINT_PX, collapsed: { mobile: !navbarOpen } }}
        padding="md"
        transitionDuration={reduceMotion ? 0 : 200}
      >
        <MainHeader navbarId={NAVBAR_ID} navbarOpen={navbarOpen} toggleNavbar={toggle} />
        {/* Off-screen on narrow screens until opened: keep its links out of the tab order then. */}
        <MainNavbar id={NAVBAR_ID} onNavigate={close} inert={narrow && !navbarOpen} />
        <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
          <AnnouncementBar />
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
      <UpdatePrompt />
    </>
  );
}
