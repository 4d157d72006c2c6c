/** The geofences capability's routes (spread into the manifest, shared/routes.ts). */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  geocodeSearchQuerySchema,
  geocodeSearchSchema,
  geofenceCreatedSchema,
  geofenceIdParamSchema,
  geofenceListSchema,
  geofenceRequestSchema,
  geofenceSchema,
} from '../schemas/geofences';

const SAVE_RULES =
  'Name 1 to 50 characters (GeofenceNameRequired, GeofenceNameTooLong); radius 300 to 9999 m (RadiusLessThan300, RadiusTooLarge, RadiusRequired); imeis: units of the account the caller may see (GeofenceUnitNotFound), at most 99 (GeofenceTooManyUnits), each with at most 5 geofences (422 errors.imeis GeofenceLimitReached); schedule: the deactivation windows or null.';

export const geofenceRoutes = {
  // Geofences (capability geofences): every account has them, so no feature.
  getGeofences: defineRoute({
    operationId: 'getGeofences',
    method: 'GET',
    path: '/api/v1/user/geofences',
    capability: 'geofences',
    file: 'get-geofences',
    access: 'member',
    apiKeyScope: 'units:read',
    summary:
      "The account's geofences with their units' names, by name. An ordinary user sees those whose units are all granted to them.",
    response: geofenceListSchema,
  }),
  getGeofence: defineRoute({
    operationId: 'getGeofence',
    method: 'GET',
    path: '/api/v1/user/geofences/{id}',
    capability: 'geofences',
    file: 'get-geofence',
    access: 'member',
    apiKeyScope: 'units:read',
    summary: 'One geofence (404 NotFound for one of another account or, for an ordinary user, one with a unit not granted to them).',
    params: geofenceIdParamSchema,
    response: geofenceSchema,
  }),
  createGeofence: defineRoute({
    operationId: 'createGeofence',
    method: 'POST',
    path: '/api/v1/user/geofences',
    capability: 'geofences',
    file: 'post-geofence',
    access: 'member',
    apiKeyScope: 'geofences:write',
    summary: `Creates a geofence and puts its copy on each of its units in one transaction; answers its id. ${SAVE_RULES}`,
    body: geofenceRequestSchema,
    response: geofenceCreatedSchema,
  }),
  updateGeofence: defineRoute({
    operationId: 'updateGeofence',
    method: 'PUT',
    path: '/api/v1/user/geofences/{id}',
    capability: 'geofences',
    file: 'put-geofence',
    access: 'member',
    apiKeyScope: 'geofences:write',
    summary: `Replaces a geofence; the copies on its units follow in the same transaction (added, updated, removed). ${SAVE_RULES}`,
    params: geofenceIdParamSchema,
    body: geofenceRequestSchema,
    response: geofenceSchema,
  }),
  deleteGeofence: defineRoute({
    operationId: 'deleteGeofence',
    method: 'DELETE',
    path: '/api/v1/user/geofences/{id}',
    capability: 'geofences',
    file: 'delete-geofence',
    access: 'member',
    apiKeyScope: 'geofences:write',
    summary: 'Deletes a geofence and its copies on its units in one transaction.',
    params: geofenceIdParamSchema,
    response: z.null(),
  }),
  searchAddresses: defineRoute({
    operationId: 'searchAddresses',
    method: 'GET',
    path: '/api/v1/user/geocode/search',
    capability: 'geofences',
    file: 'get-geocode-search',
    access: 'member',
    summary: 'Addresses and places matching a text, best first (at most 10), optionally preferring those near lat/lon: what the geofence and place editors centre their map on.',
    query: geocodeSearchQuerySchema,
    response: geocodeSearchSchema,
  }),
} as const;
