import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { supportLog } from './support-log';

export const handler = httpHandler(routes.getSupportLog, async ({ ports }) => ({ entries: await supportLog(ports.clock.now()) }));
