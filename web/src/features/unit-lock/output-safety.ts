/**
 * Outputs whose switching can stop a vehicle or keep it from starting: an output labelled as an
 * immobiliser or a relay, in English, Swedish or Norwegian. Switching one asks for confirmation
 * first (web/src/features/commands/components/dout-controls.tsx).
 */
const IMMOBILISER_OR_RELAY = /immobili[sz]|startspärr|startsperr|tenningsperr|tenning|relä|rele\b|relé|relay/i;

export function isImmobiliserOrRelay(label: string | undefined | null): boolean {
  return Boolean(label && IMMOBILISER_OR_RELAY.test(label));
}
