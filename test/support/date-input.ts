/**
 * Types into one of the portal's date fields (web/src/ui/date-fields.tsx) as a user does, and closes
 * the calendar that typing opens. Left open, the calendar can cover the button clicked next, and a
 * click meant for that button picks a day of the calendar instead.
 */
import type { Locator } from 'playwright-core';
import { poll } from './browser';

export async function typeDate(field: Locator, text: string): Promise<void> {
  await field.fill(text);
  await field.press('Escape');
  await poll(() => field.page().locator('[data-dates-dropdown]').count()).toBe(0);
}
