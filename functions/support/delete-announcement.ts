import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { deleteAnnouncement } from './announcement-repository';
import { logSupportAction } from './support-log';

export const handler = httpHandler(routes.removeSupportAnnouncement, async ({ auth, params, ports }) => {
  await deleteAnnouncement(params.subsiteId, params.lang);
  await logSupportAction(auth, { action: 'removeAnnouncement', account: null, details: `${params.subsiteId}/${params.lang}` }, ports.clock.now());
  return null;
});
