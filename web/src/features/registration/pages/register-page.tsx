import '../registration.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { queryClient } from '../../../app/query-client';
import { PageLoader } from '../../../ui/page-loader';
import { RegistrationWizard } from '../components/registration-wizard';
import { readRootDesignFlag, resolveDesign } from '../design';

// Only visitors of the classic design pay for its country list (libphonenumber-js metadata).
const ClassicRegistrationForm = lazy(() => import('../components/classic-form').then((m) => ({ default: m.ClassicRegistrationForm })));

/**
 * /user/register (spec section 2): the new-design wizard, or the classic form when the root element
 * does not flag the new design (or `?design=classic` asks for it). The page is outside the member
 * area, so it brings TanStack Query's provider itself.
 */
export function RegisterPage() {
  const [search] = useSearchParams();
  const design = resolveDesign(readRootDesignFlag(), search.toString());
  return (
    <QueryClientProvider client={queryClient}>
      {design === 'classic' ? (
        <Suspense fallback={<PageLoader />}>
          <ClassicRegistrationForm />
        </Suspense>
      ) : (
        <RegistrationWizard />
      )}
    </QueryClientProvider>
  );
}
