import { routes } from '../../shared/routes';
import { supportMessageKeys } from '../../shared/schemas/support';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { putAnnouncement } from './announcement-repository';
import { logSupportAction } from './support-log';

export const handler = httpHandler(routes.setSupportAnnouncement, async ({ auth, params, body, ports }) => {
  const now = ports.clock.now();
  if (body.until !== null && Date.parse(body.until) <= now.getTime()) throw new ValidationError({ until: [supportMessageKeys.AnnouncementEndInPast] });
  await putAnnouncement(params.subsiteId, params.lang, body.text, body.until);
  await logSupportAction(
    auth,
    { action: 'setAnnouncement', account: null, details: `${params.subsiteId}/${params.lang}${body.until ? ` until ${new Date(body.until).toISOString()}` : ''}: ${body.text}` },
    now,
  );
  return null;
});
