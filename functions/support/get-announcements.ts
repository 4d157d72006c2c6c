import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listAnnouncements } from './announcement-repository';

export const handler = httpHandler(routes.getSupportAnnouncements, async () => ({ announcements: await listAnnouncements() }));
