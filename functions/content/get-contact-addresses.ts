/** GET /api/v1/contact-addresses: where a brand's customers ask to cancel (the account deletion page). */
import { brandById } from '../../shared/brands';
import { routes } from '../../shared/routes';
import type { z } from 'zod';
import type { contactAddressesSchema } from '../../shared/schemas/auth';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getContactAddresses, async ({ query }): Promise<z.infer<typeof contactAddressesSchema>> => {
  const brand = brandById(query.SubsiteID);
  return { email: brand.contactEmail, phonelbl: brand.contactPhone };
});
