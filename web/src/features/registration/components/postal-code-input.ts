import { registrationMaxLengths, UK_POSTCODE_MAX_LENGTH } from '../../../../../shared/schemas/registration';

/** The postal code field's keyboard and limit: digits for Sweden and Norway, letters too for a UK postcode. */
export function postalCodeInput(unitedKingdom: boolean) {
  return unitedKingdom
    ? ({ inputMode: 'text', autoCapitalize: 'characters', autoComplete: 'postal-code', max: UK_POSTCODE_MAX_LENGTH } as const)
    : ({ inputMode: 'numeric', autoComplete: 'postal-code', max: registrationMaxLengths.postalCode } as const);
}
