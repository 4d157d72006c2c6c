import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeAttestation } from './attestation-service';

export const handler = httpHandler(routes.deleteAttestation, async ({ auth, params }) => {
  await removeAttestation(auth, params.id);
  return null;
});
