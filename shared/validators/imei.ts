/**
 * IMEI: 15 digits whose last is the Luhn check digit of the first 14. `IMEI_PATTERN` is the shape
 * every topic, key and path parameter checks; `isValidImei` adds the check digit, for what a person
 * types in (registration, adding a unit).
 */

export const IMEI_PATTERN = /^\d{15}$/;

/** 15 digits: the form an IMEI has in topics, keys and paths (no check digit test: trackers are what they are). */
export const isImeiShape = (value: string): boolean => IMEI_PATTERN.test(value);

export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidImei(imei: string): boolean {
  return isImeiShape(imei) && luhnCheckDigit(imei.slice(0, 14)) === Number(imei[14]);
}

/** A valid IMEI from its first 14 digits. */
export function imeiFrom(body14: string): string {
  if (!/^\d{14}$/.test(body14)) throw new Error('an IMEI body has 14 digits');
  return body14 + String(luhnCheckDigit(body14));
}
