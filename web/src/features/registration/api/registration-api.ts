/**
 * The registration calls (docs/api.md Public): the IMEI and e-mail checks of the wizard, the payment
 * methods of the review step and the registration itself. Failures are ApiErrors whose
 * `fieldErrors` carry the server's 422 keys per payload field.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { BrandId } from '../../../../../shared/brands';
import { routes } from '../../../../../shared/routes';
import type { Language } from '../../../../../shared/schemas/common';
import { paymentTypesSchema, registerAccountResponseSchema, type RegisterAccountRequest } from '../../../../../shared/schemas/registration';
import { apiRequest } from '../../../app/api-client';

function withQuery(path: string, query: Record<string, string>): string {
  return `${path}?${new URLSearchParams(query).toString()}`;
}

/** Resolves when the IMEI can be registered on this brand; a 422 names the reason in `fieldErrors.imei`. */
export async function validateImei(imei: string, subsiteID: BrandId, signal?: AbortSignal): Promise<void> {
  const { method, path } = routes.validateImei;
  await apiRequest(method, withQuery(path, { imei, subsiteID: String(subsiteID) }), signal ? { signal } : {});
}

/** Resolves when the address is valid and not in use; a 422 names the reason in `fieldErrors.email`. */
export async function validateEmail(email: string, signal?: AbortSignal): Promise<void> {
  const { method, path } = routes.validateEmail;
  await apiRequest(method, withQuery(path, { email }), signal ? { signal } : {});
}

export function fetchPaymentTypes(imei: string, lang: Language, subsiteID: BrandId, signal?: AbortSignal) {
  const { method, path } = routes.getPaymentTypes;
  return apiRequest(method, path, { body: { imei, lang, subsiteID }, schema: paymentTypesSchema, ...(signal ? { signal } : {}) });
}

/**
 * The payment methods a private customer chooses from on brand 0 (spec section 4). Other brands and
 * companies have no choice, so nothing is asked.
 */
export function usePaymentTypes(imei: string, lang: Language, subsiteID: BrandId, enabled: boolean) {
  return useQuery({
    queryKey: ['registration', 'payment-types', imei, lang, subsiteID],
    queryFn: ({ signal }) => fetchPaymentTypes(imei, lang, subsiteID, signal),
    enabled,
    staleTime: 10 * 60_000,
  });
}

export function registerAccount(payload: RegisterAccountRequest) {
  const { method, path } = routes.registerAccount;
  return apiRequest(method, path, { body: payload, schema: registerAccountResponseSchema });
}

export function useRegisterAccount() {
  return useMutation({ mutationFn: registerAccount });
}
