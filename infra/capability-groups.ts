/**
 * The nested stacks of the HTTP capabilities: each group is one nested stack holding its
 * capabilities' functions (with their roles, log groups and alarms) and their API routes,
 * integrations and invoke permissions (docs/architecture.md, "Stacks"). CloudFormation allows
 * 500 resources per stack; a group of about 50 routes is about 110 resources, so each group has
 * room to grow, and test/infra/stack-size.test.ts fails when any stack passes 400.
 *
 * A new capability joins a group with room, or a new group. A deployed capability stays in its
 * group: moved, its routes would be created in the other stack before the old ones are deleted,
 * and API Gateway refuses a second route with the same key on one API.
 */
import type { Capability } from '../shared/routes';

export const capabilityGroups = {
  Fleet: ['tracking', 'units', 'live', 'sensors', 'rfid', 'events', 'alarms', 'push'],
  Trips: ['trips', 'reports', 'geofences', 'places', 'bookings', 'safe-home'],
  Accounts: ['auth', 'registration', 'organisation', 'administration', 'support', 'content', 'vitals', 'webhooks', 'api-keys'],
} as const satisfies Record<string, readonly Capability[]>;

export type CapabilityGroup = keyof typeof capabilityGroups;

/** The group of each capability; throws naming a capability that is in none or in two. */
export function groupOf(capability: Capability, groups: Readonly<Record<string, readonly Capability[]>> = capabilityGroups): string {
  const found = Object.entries(groups).filter(([, list]) => list.includes(capability));
  if (found.length !== 1) {
    throw new Error(
      `capability ${capability} is in ${found.length ? `${found.length} groups (${found.map(([g]) => g).join(', ')})` : 'no group'} of infra/capability-groups.ts: put it in exactly one (a group is one nested stack)`,
    );
  }
  return found[0]![0];
}
