import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { getSessionUser, subscribeSession } from './session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      refetchOnWindowFocus: false,
      // Client errors (401, 403, 404, 422) do not get better by asking again.
      retry: (failureCount, error) =>
        failureCount < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

// A session that ends (log-out, 'Unauthenticated.') takes the cached account data with it.
subscribeSession(() => {
  if (!getSessionUser()) queryClient.clear();
});
