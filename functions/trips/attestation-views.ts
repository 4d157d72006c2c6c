/** An attestation as the API answers it, with the attester's name. */
import type { Attestation } from '../../shared/schemas/trips';
import { toAttestation, type AttestationItem } from './attestation-repository';
import { accountUser, fullName } from './people';

export async function attestationView(item: AttestationItem, zone: string): Promise<Attestation> {
  const user = await accountUser(item.accountId, item.userId);
  return toAttestation(item, user ? fullName(user) : null, zone);
}
