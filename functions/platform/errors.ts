/**
 * Typed domain errors. Services throw these; `toHttpResponse` in http.ts maps them to HTTP in one
 * place. Anything else becomes a generic 500 without details.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly status: number;
  /** A message key the browser translates. */
  readonly key: string;
  constructor(key: string) {
    super(key);
    this.key = key;
  }
}

export class ValidationError extends DomainError {
  readonly status = 422;
  readonly fieldErrors: FieldErrors;
  constructor(fieldErrors: FieldErrors, key = 'ValidationFailed') {
    super(key);
    this.fieldErrors = fieldErrors;
  }
}

export class UnauthenticatedError extends DomainError {
  readonly status = 401;
  constructor() {
    super('Unauthenticated.');
  }
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  constructor(key = 'Forbidden') {
    super(key);
  }
}

/** Also for another account's object: its existence is not revealed. */
export class NotFoundError extends DomainError {
  readonly status = 404;
  constructor(key = 'NotFound') {
    super(key);
  }
}

export class ConflictError extends DomainError {
  readonly status = 409;
  constructor(key = 'Conflict') {
    super(key);
  }
}

export class TooManyRequestsError extends DomainError {
  readonly status = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, key = 'TooManyAttempts') {
    super(key);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A domain error that carries an arbitrary `errors` body (login: `{ msg, count }`). */
export class DetailedError extends DomainError {
  readonly status: number;
  readonly errors: unknown;
  constructor(status: number, key: string, errors: unknown) {
    super(key);
    this.status = status;
    this.errors = errors;
  }
}
