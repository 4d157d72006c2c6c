import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unlockAttestation } from './attestation-service';
import { attestationView } from './attestation-views';

export const handler = httpHandler(routes.unlockAttestation, async ({ auth, params, timeZone, ports }) =>
  attestationView(await unlockAttestation(auth, params.id, ports.clock.now().getTime()), timeZone),
);
