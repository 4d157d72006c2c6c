/**
 * The browser routes of spec section 2, in react-router's declarative mode.
 *
 * Only the login page and the public layout are in the entry chunk. Every other page, the
 * logged-in shell, TanStack Query and the guards that need the account settings load lazily
 * (member-area.tsx), so the login route stays within its 150 kB budget and later map code never
 * reaches it. (The data router, createBrowserRouter, alone costs 15 kB gzipped; nothing here
 * needs loaders or actions.)
 */
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { LoginPage } from '../features/auth/pages/login-page';
import { PageLoader } from '../ui/page-loader';
import { configureApiClient } from './api-client';
import { PublicLayout } from './layouts/public-layout';
import { lazyFeature } from './lazy-feature';
import { isMemberPath, paths, returnPathOf } from './paths';
import { endSession, useSessionUser } from './session';
import { useDocumentTitle } from './use-page-title';

const RegisterPage = lazyFeature('registration', () => import('../features/registration/pages/register-page').then((m) => m.RegisterPage));
const ForgotPasswordPage = lazyFeature('account', () => import('../features/account/pages/forgot-password-page').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyFeature('account', () => import('../features/account/pages/reset-password-page').then((m) => m.ResetPasswordPage));
const AccountDeletionPage = lazyFeature('account', () => import('../features/account/pages/account-deletion-page').then((m) => m.AccountDeletionPage));
const AlertOptOutPage = lazyFeature('account', () => import('../features/account/pages/alert-opt-out-page').then((m) => m.AlertOptOutPage));
const QueryOutlet = lazy(() => import('./query-outlet').then((m) => ({ default: m.QueryOutlet })));
const NotFoundPage = lazy(() => import('../ui/not-found-page').then((m) => ({ default: m.NotFoundPage })));
const OutboxPage = lazy(() => import('../features/dev/pages/outbox-page').then((m) => ({ default: m.OutboxPage })));
const MemberArea = lazy(() => import('./member-area').then((m) => ({ default: m.MemberArea })));
const LandingRedirect = lazy(() => import('./member-area').then((m) => ({ default: m.LandingRedirect })));

/**
 * Public pages: a logged-in visitor goes back to the member page that sent them to log in (a QR
 * check-in link, say), else to the landing route (the map, or the trip log without map).
 */
function PublicOnly() {
  const user = useSessionUser();
  const { state } = useLocation();
  if (!user) return <Outlet />;
  const back = returnPathOf(state);
  return back ? <Navigate to={back} replace /> : <LandingRedirect />;
}

/**
 * Every address that is not a public page: the member area for a logged-in user; for anyone else
 * a member route sends to `/` (which sends them back after the login) and an unknown address shows
 * the not-found page.
 */
function MemberGate() {
  const user = useSessionUser();
  const { pathname, search } = useLocation();
  if (user) return <MemberArea />;
  if (isMemberPath(pathname)) return <Navigate to={paths.login} replace state={{ returnTo: `${pathname}${search}` }} />;
  return (
    <PublicLayout>
      <NotFoundPage />
    </PublicLayout>
  );
}

/** Lets the API client navigate: an 'Unauthenticated.' answer ends the session and goes to `/`. */
function ApiNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    configureApiClient({
      onUnauthenticated: () => {
        endSession();
        void navigate(paths.login, { replace: true });
      },
      onSafeHomeUnauthorized: () => void navigate(paths.realtimeTracking, { replace: true }),
    });
  }, [navigate]);
  return null;
}

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function AppRoutes() {
  useDocumentTitle();
  return (
    <>
      <ApiNavigation />
      <ScrollToTop />
      <Suspense fallback={<PageLoader />}>
        <Routes>
          <Route element={<PublicOnly />}>
            <Route element={<PublicLayout />}>
              <Route index element={<LoginPage />} />
              <Route element={<QueryOutlet />}>
                <Route path={paths.register} element={<RegisterPage />} />
                <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
                <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
                <Route path={paths.accountDeletion} element={<AccountDeletionPage />} />
                <Route path={paths.alertOptOut} element={<AlertOptOutPage />} />
              </Route>
            </Route>
          </Route>
          <Route element={<PublicLayout />}>
            <Route path={paths.outbox} element={<OutboxPage />} />
          </Route>
          <Route path="*" element={<MemberGate />} />
        </Routes>
      </Suspense>
    </>
  );
}
