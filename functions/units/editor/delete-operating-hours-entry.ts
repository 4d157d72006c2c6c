import { routes } from '../../../shared/routes';
import { unitEditorMessageKeys as keys } from '../../../shared/schemas/unit-editor-messages';
import { NotFoundError } from '../../platform/errors';
import { httpHandler } from '../../platform/http';
import { unitFor } from '../../trips/access';
import { deleteOperatingHoursEntry } from './operating-hours';

export const handler = httpHandler(routes.deleteOperatingHoursEntry, async ({ auth, params }) => {
  const unit = await unitFor(auth, params.imei);
  if (!(await deleteOperatingHoursEntry(unit, Number(params.entryId)))) throw new NotFoundError(keys.EntryNotFound);
  return null;
});
