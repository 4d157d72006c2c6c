import { routes } from '../../shared/routes';
import type { Settings } from '../../shared/schemas/system';
import { httpHandler } from '../platform/http';
import { getAccount } from './account-repository';
import { landingPageOf } from './profile';
import { getUser } from './user-repository';

const NO_FEATURES = { realtimeMap: false, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false };

export const handler = httpHandler(routes.getSettings, async ({ auth }): Promise<Settings> => {
  const account = await getAccount(auth.accountId);
  // An account without flags takes none (functions/domain/account/schema.ts).
  const f = account.features ?? NO_FEATURES;
  // A deleted profile limits no one (functions/platform/http.ts reads it the same way).
  const profile = auth.featureProfileId === undefined ? undefined : account.featureProfiles?.[auth.featureProfileId];
  return {
    enable_rfid: f.rfid,
    enable_car_booking: f.carBooking,
    EnableSafeReturnHome: f.safeReturnHome,
    realtime_map: f.realtimeMap,
    basic_only: f.basicOnly,
    is_admin: auth.isAdmin,
    is_support: auth.isSupport,
    ParentID: account.parentId ?? null,
    profile_features: profile ? profile.features : null,
    profile_reports: profile ? profile.reports : null,
    landing_page: landingPageOf(await getUser(auth.userId)),
  };
});
