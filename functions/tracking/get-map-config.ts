import { routes } from '../../shared/routes';
import { getEnv } from '../platform/env';
import { httpHandler } from '../platform/http';

export const handler = httpHandler(routes.getMapConfig, async () => ({ styleUrl: getEnv().MAP_STYLE_URL ?? null }));
