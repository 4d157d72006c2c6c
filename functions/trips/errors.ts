/** The trip log's own refusals on top of functions/platform/errors.ts. */
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { DomainError } from '../platform/errors';

/** 423 Locked: an attested trip cannot be edited, merged or split (docs/api.md). */
export class TripIsAttestedError extends DomainError {
  readonly status = 423;
  constructor() {
    super(keys.TripIsAttested);
  }
}
