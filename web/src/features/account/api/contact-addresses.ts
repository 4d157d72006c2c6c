import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { contactAddressesSchema } from '../../../../../shared/schemas/auth';
import { apiRequest } from '../../../app/api-client';

/** The brand's contact e-mail and phone (GET /api/v1/contact-addresses?SubsiteID=). */
export function useContactAddresses(subsiteId: number) {
  return useQuery({
    queryKey: ['contact-addresses', subsiteId],
    queryFn: ({ signal }) =>
      apiRequest(routes.getContactAddresses.method, `${routes.getContactAddresses.path}?SubsiteID=${subsiteId}`, {
        schema: contactAddressesSchema,
        signal,
      }),
    staleTime: 60 * 60_000,
  });
}
