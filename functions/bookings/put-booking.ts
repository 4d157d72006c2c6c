import { routes } from '../../shared/routes';
import { carScheduleMessageKeys as keys } from '../../shared/schemas/car-schedule-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { updateBooking } from './booking-service';

export const handler = httpHandler(routes.updateBooking, async ({ auth, params, body, timeZone, ports }) =>
  new HttpReply(200, await updateBooking(auth, timeZone, params.id, body, () => ports.clock.now()), keys.UpdateSuccessMsg),
);
