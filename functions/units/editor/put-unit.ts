import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { saveUnitEditor } from './unit-editor-service';

export const handler = httpHandler(routes.updateUnitDetails, async ({ auth, params, body, ports }) =>
  saveUnitEditor(auth, params.imei, body, () => ports.clock.now().getTime(), ports),
);
