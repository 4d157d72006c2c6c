import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { receiverUnits } from './receiver-service';

export const handler = httpHandler(routes.getAlarmReceiverUnits, async ({ auth, body }) => receiverUnits(auth, body.receiverId, body.selectedOnly === true));
