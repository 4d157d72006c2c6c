/**
 * What each deployed function may touch besides its own logs: the tables (read, or read and
 * write) and the other resources its handlers reach through the ports. One entry per function,
 * beside the route manifest whose capabilities they are. The CDK stack turns an entry into both
 * the function's environment (the table names its handlers look up) and its IAM grants, in one
 * place; a table missing here is neither named to the function nor granted to it.
 *
 * The stack also reads the function's bundle and refuses to synthesize when its code uses a
 * table or a port operation the entry does not declare; the contract test also fails on what is
 * declared but unused. docs/decisions/0013-resource-grants.md has the rules.
 */
import type { Capability } from './routes';
import type { TableKey } from './tables';

export type TableAccess = 'read' | 'read-write';

/**
 * IdentityProvider operations that need a permission. `verifyAccessToken` checks signatures
 * against the pool's public keys and `revoke` is an API Cognito does not authorize with IAM, so
 * neither appears here.
 */
export const identityOperations = ['createUser', 'authenticate', 'refresh', 'setPassword', 'signOutEverywhere', 'deleteUser'] as const;
export type IdentityOperation = (typeof identityOperations)[number];

export const geocoderOperations = ['reverse', 'search'] as const;
export type GeocoderOperation = (typeof geocoderOperations)[number];

export interface FunctionResources {
  readonly tables: Readonly<Partial<Record<TableKey, TableAccess>>>;
  /** Mailer.send: e-mail from MAIL_FROM. */
  readonly mail?: true;
  /** SmsSender.send: a text message to a phone number. */
  readonly sms?: true;
  readonly geocoder?: readonly GeocoderOperation[];
  readonly identity?: readonly IdentityOperation[];
  /** LiveBus.publish: the browsers' live topics. */
  readonly live?: true;
  /** DeviceGateway.send: commands to trackers. */
  readonly devices?: true;
}

/** The IoT Core custom authorizer of the live channel: a function of its own, outside the HTTP API. */
export const LIVE_AUTHORIZER = 'live-authorizer';
export type FunctionName = Capability | typeof LIVE_AUTHORIZER;

// The shared HTTP middleware reads the session (tokens) and the user (users) for every route that
// is not public, so each function serving such a route declares both.
export const functionResources: Readonly<Partial<Record<FunctionName, FunctionResources>>> = {
  auth: {
    tables: { users: 'read-write', tokens: 'read-write', uniques: 'read', accounts: 'read', rateLimits: 'read-write' },
    mail: true,
    identity: ['authenticate', 'refresh', 'setPassword', 'signOutEverywhere'],
  },
  // Public routes only: no session to read, and no password reset, SMS or device command.
  registration: {
    tables: { inventory: 'read-write', uniques: 'read-write', accounts: 'read-write', users: 'read-write', units: 'read-write', rateLimits: 'read-write' },
    mail: true,
    identity: ['createUser', 'deleteUser'],
  },
  content: {
    tables: { announcements: 'read' },
  },
  tracking: {
    tables: { users: 'read', tokens: 'read', units: 'read', positions: 'read' },
    geocoder: ['reverse'],
  },
  live: {
    tables: { users: 'read', tokens: 'read' },
  },
  units: {
    tables: { users: 'read', tokens: 'read', units: 'read-write', commands: 'read-write' },
    live: true,
    devices: true,
  },
  ingest: {
    tables: { accounts: 'read', inventory: 'read', units: 'read-write', positions: 'read-write', commands: 'read-write', deadLetters: 'read-write' },
    live: true,
  },
  jobs: {
    tables: { commands: 'read-write' },
    live: true,
  },
  [LIVE_AUTHORIZER]: {
    tables: { users: 'read', tokens: 'read' },
  },
};
