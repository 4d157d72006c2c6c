import type { ApiKeyScope } from '../../../../shared/schemas/api-keys';

/** The i18n key of each scope's label (shared/i18n/features/api-keys). */
export const scopeLabelKeys: Readonly<Record<ApiKeyScope, string>> = {
  'units:read': 'ApiKeyScopeUnitsRead',
  'trips:read': 'ApiKeyScopeTripsRead',
  'events:read': 'ApiKeyScopeEventsRead',
  'reports:read': 'ApiKeyScopeReportsRead',
  'commands:send': 'ApiKeyScopeCommandsSend',
  'geofences:write': 'ApiKeyScopeGeofencesWrite',
};
