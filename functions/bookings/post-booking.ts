import { routes } from '../../shared/routes';
import { carScheduleMessageKeys as keys } from '../../shared/schemas/car-schedule-messages';
import { created, httpHandler } from '../platform/http';
import { createBooking } from './booking-service';

export const handler = httpHandler(routes.createBooking, async ({ auth, body, timeZone, ports }) =>
  created(await createBooking(auth, timeZone, body, () => ports.clock.now()), keys.NewBookingSuccessMsg),
);
