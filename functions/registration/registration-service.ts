/**
 * Registers a customer: the account, its admin user and the unit, atomically, plus the login
 * identity, which lives outside DynamoDB and so outside the transaction.
 *
 * Order, so that a lost race or a failure leaves nothing usable behind:
 * 1. Cheap reads answer the common mistakes (unknown or registered IMEI, e-mail in use) before
 *    anything is written.
 * 2. The identity is created first. It is unique by login name, so of two registrations of one
 *    e-mail only one gets this far. Alone it grants nothing: every request also needs our user
 *    record, and login needs a session on it.
 * 3. The transaction writes records and claims. It is the decision point: of two registrations
 *    of one IMEI (or one e-mail) exactly one commits.
 * 4. If the transaction does not commit, the identity made in 2 is deleted again. It is ours
 *    alone: nobody else could create one with that login name in between.
 * A crash between 2 and 4 leaves at most an identity without records, which cannot log in and
 * holds no IMEI; the address then answers EmailAlreadyInUse until support removes it.
 */
import { randomUUID } from 'node:crypto';
import { brandById } from '../../shared/brands';
import type { Registration } from '../../shared/schemas/registration';
import { getEnv } from '../platform/env';
import { sendTemplatedEmail } from '../platform/email/templates';
import { ConflictError, ValidationError, type FieldErrors } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { AccountRecord } from '../domain/account/schema';
import type { UnitRecord } from '../domain/unit/schema';
import type { UserRecord } from '../domain/user/schema';
import { getInventoryItem, imeiProblemOf, isEmailClaimed, writeRegistration, type InventoryItem } from './registration-repository';

/** Days raw positions are kept for a new account (13 months). */
export const DEFAULT_RETENTION_DAYS = 395;

export interface RegisteredAccount {
  accountId: string;
  userId: string;
}

async function precheck(reg: Registration): Promise<InventoryItem> {
  const [item, emailTaken] = await Promise.all([getInventoryItem(reg.imei), isEmailClaimed(reg.email)]);
  const errors: FieldErrors = {};
  const imeiProblem = imeiProblemOf(item);
  if (imeiProblem) errors['Imei'] = [imeiProblem];
  if (emailTaken) errors['userName'] = ['EmailAlreadyInUse'];
  if (!item || Object.keys(errors).length) throw new ValidationError(errors);
  return item;
}

function recordsOf(reg: Registration, ids: RegisteredAccount, protocol: UnitRecord['protocol'], now: Date) {
  const createdAt = now.toISOString();
  const phone = reg.phone;
  const account: AccountRecord = {
    accountId: ids.accountId,
    parentId: null,
    type: reg.isPrivate ? 'private' : 'company',
    name: reg.accountName,
    subsiteId: reg.subsiteId,
    features: { realtimeMap: true, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false },
    // The brand's starting balance (shared/brands.ts); support adds credits from then on.
    smsCredits: brandById(reg.subsiteId).startingSmsCredits,
    retentionDays: DEFAULT_RETENTION_DAYS,
    ...(reg.orgNumber ? { orgNumber: reg.orgNumber } : {}),
    ...(reg.personalNumber ? { personalNumber: reg.personalNumber } : {}),
    contactPerson: reg.contactPerson,
    phone,
    ...(reg.companyPhone ? { companyPhone: reg.companyPhone } : {}),
    street: reg.street,
    zipCode: reg.zipCode,
    city: reg.city,
    country: reg.country,
    countryCode: reg.countryCode,
    reseller: reg.reseller,
    ...(reg.comment ? { comment: reg.comment } : {}),
    paymentType: reg.paymentType,
    createdAt,
  };
  const user: UserRecord = {
    userId: ids.userId,
    accountId: ids.accountId,
    username: reg.email,
    email: reg.email,
    firstName: reg.firstName,
    lastName: reg.lastName,
    phone,
    lang: reg.lang,
    subsiteId: reg.subsiteId,
    isAdmin: true,
    isSupport: false,
    enableTwoFactorAuth: false,
    createdAt,
  };
  // The IMEI names the unit until the customer renames it: it is printed on the tracker.
  const unit: UnitRecord = { imei: reg.imei, accountId: ids.accountId, name: reg.imei, vehicleType: 'car', protocol, createdAt };
  return { account, user, unit };
}

async function createIdentity(reg: Registration, userId: string, ports: Ports): Promise<void> {
  try {
    await ports.identity.createUser({ userId, username: reg.email, email: reg.email, password: reg.password });
  } catch (error) {
    if (error instanceof ConflictError) throw new ValidationError({ userName: ['EmailAlreadyInUse'] });
    // The provider's own password policy (Cognito) reports on `password`; the payload calls it userPassword.
    if (error instanceof ValidationError && error.fieldErrors['password']) {
      throw new ValidationError({ userPassword: error.fieldErrors['password'] });
    }
    throw error;
  }
}

export async function registerAccount(reg: Registration, ports: Ports): Promise<RegisteredAccount> {
  const item = await precheck(reg);
  const ids: RegisteredAccount = { accountId: randomUUID(), userId: randomUUID() };
  await createIdentity(reg, ids.userId, ports);
  try {
    await writeRegistration(recordsOf(reg, ids, item.protocol ?? 'native', ports.clock.now()));
  } catch (error) {
    await ports.identity.deleteUser(reg.email).catch((cleanup: unknown) => {
      logger.error('Could not remove the identity of a failed registration', { userId: ids.userId, error: cleanup as Error });
    });
    throw error;
  }

  try {
    await sendTemplatedEmail('welcome', reg.email, reg.lang, reg.subsiteId, {
      firstName: reg.firstName,
      username: reg.email,
      loginUrl: new URL('/', getEnv().APP_URL).href,
    });
  } catch (error) {
    // The account exists and works; a lost welcome e-mail must not turn that into a failure.
    logger.error('Could not send the welcome e-mail', { userId: ids.userId, error: error as Error });
  }
  return ids;
}
