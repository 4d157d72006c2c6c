import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { getUnitEditor } from './unit-editor-service';

export const handler = httpHandler(routes.getUnitDetails, async ({ auth, params, ports }) => getUnitEditor(auth, params.imei, ports.clock.now().getTime()));
