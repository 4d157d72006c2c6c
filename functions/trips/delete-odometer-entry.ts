import { routes } from '../../shared/routes';
import { NotFoundError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { unlockedUnitFor } from './access';
import { deleteOdometerEntry } from './odometer';

export const handler = httpHandler(routes.deleteOdometerEntry, async ({ auth, params }) => {
  const unit = await unlockedUnitFor(auth, params.imei);
  if (!(await deleteOdometerEntry(unit, Number(params.entryId)))) throw new NotFoundError();
  return null;
});
