import { routes } from '../../shared/routes';
import { carScheduleMessageKeys as keys } from '../../shared/schemas/car-schedule-messages';
import { HttpReply, httpHandler } from '../platform/http';
import { deleteBooking } from './booking-service';

export const handler = httpHandler(routes.deleteBooking, async ({ auth, params, ports }) => {
  await deleteBooking(auth, params.id, () => ports.clock.now());
  return new HttpReply(200, null, keys.DeleteMsg);
});
