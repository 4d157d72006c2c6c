import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from './query-client';

/**
 * TanStack Query for the lazily loaded public pages (password reset, account deletion, alert
 * opt-out, registration). The login page stays outside it: the library is not in its budget.
 */
export function QueryOutlet() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
