/**
 * The Cognito user pool our auth handlers drive through the Admin APIs
 * (functions/platform/adapters/aws/identity.ts): Cognito keeps passwords and issues tokens; lockout,
 * brands, 2FA, password reset and sign-up are ours. The Cognito username is our userId; people
 * log in with the preferred_username alias (docs/decisions/0005-identity.md).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import type { IdentityOperation } from '../../shared/capability-resources';
import { acknowledge } from './nag';

/**
 * The Cognito actions behind each IdentityProvider operation of the AWS adapter
 * (functions/platform/adapters/aws/identity.ts), for the grants of shared/capability-resources.ts.
 * createUser confirms the user by answering NEW_PASSWORD_REQUIRED instead of calling
 * AdminSetUserPassword, so registering never carries the power to reset a password; a failed
 * creation is rolled back with AdminDeleteUser.
 */
export const IDENTITY_OPERATION_ACTIONS: Readonly<Record<IdentityOperation, readonly string[]>> = {
  createUser: [
    'cognito-idp:AdminCreateUser',
    'cognito-idp:AdminInitiateAuth',
    'cognito-idp:AdminRespondToAuthChallenge',
    'cognito-idp:AdminUpdateUserAttributes',
    'cognito-idp:AdminDeleteUser',
  ],
  authenticate: ['cognito-idp:AdminInitiateAuth'],
  refresh: ['cognito-idp:AdminInitiateAuth', 'cognito-idp:AdminGetUser'],
  setPassword: ['cognito-idp:AdminSetUserPassword'],
  signOutEverywhere: ['cognito-idp:AdminUserGlobalSignOut'],
  deleteUser: ['cognito-idp:AdminDeleteUser'],
};

export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: { readonly poolName: string }) {
    super(scope, id);
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: props.poolName,
      // Accounts are created by our registration and admin handlers with AdminCreateUser.
      selfSignUpEnabled: false,
      // No e-mail alias (0005-identity): Cognito would refuse a second user with the same verified
      // e-mail, e.g. one person registered under two brands. Aliases cannot change after creation.
      signInAliases: { username: true, preferredUsername: true },
      signInCaseSensitive: false,
      // The handlers set email_verified themselves; Cognito must not send its own mails.
      autoVerify: { email: false, phone: false },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 8,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        requireLowercase: false,
        tempPasswordValidity: Duration.days(1),
      },
      // Password reset is our own e-mailed, single-use link (docs/api.md /forgot-password).
      accountRecovery: cognito.AccountRecovery.NONE,
      mfa: cognito.Mfa.OFF,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.client = this.userPool.addClient('ApiClient', {
      userPoolClientName: `${props.poolName}-api`,
      generateSecret: false,
      // ALLOW_ADMIN_USER_PASSWORD_AUTH; CDK always adds ALLOW_REFRESH_TOKEN_AUTH.
      authFlows: { adminUserPassword: true },
      disableOAuth: true,
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
      // The browser holds this client's access token, which Cognito's own user APIs accept
      // (UpdateUserAttributes, GetUser). Rewriting preferred_username there would take a login name
      // past our uniqueness claims, so a user may write nothing but email: Cognito requires every
      // required attribute to stay writable, and ignores an empty list as if none were given. email
      // is no alias here and our handlers read the users table, so a changed one reaches nothing.
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true }),
      readAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, emailVerified: true, preferredUsername: true }),
    });

    acknowledge(this.userPool, [
      [
        'AwsSolutions-COG2',
        'Second factor is our own: a 6-digit code e-mailed by the auth handlers (spec 2FA; docs/decisions/0010-sessions-trust-and-lockout.md), with trusted browsers. Cognito MFA would bypass that flow, since the handlers sign in with AdminInitiateAuth.',
      ],
      [
        'AwsSolutions-COG8',
        'Threat protection (Plus tier) is per-MAU cost for what the handlers already do: 5 failed logins per username then a one-hour block, rate limits on /login, /2fa and e-mail lookups. Revisit if credential stuffing shows up.',
      ],
    ]);
  }
}
