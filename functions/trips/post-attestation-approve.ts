import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { approveAttestation } from './attestation-service';
import { attestationView } from './attestation-views';

export const handler = httpHandler(routes.approveAttestation, async ({ auth, params, timeZone, ports }) =>
  attestationView(await approveAttestation(auth, params.id, ports.clock.now().getTime()), timeZone),
);
