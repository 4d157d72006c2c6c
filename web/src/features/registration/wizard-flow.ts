/**
 * The registration wizard's navigation, without React or the DOM (spec sections 2 and 4): which
 * steps a customer goes through, forward and back, what the progress dots allow, what Enter does,
 * and where a stored wizard resumes.
 *
 * Forward and back both follow one ordered path per customer type and country, so the back rule of
 * spec section 4 (name -> company name or reseller; address -> personal number, e-mail or
 * organisation number) is the same list read the other way and cannot drift from the forward rule.
 */
import {
  COMPANY,
  DEFAULT_COUNTRY,
  PRIVATE,
  registrationCountries,
  wizardStepSchemas,
  wizardStepsFor,
  type RegistrationCountry,
  type WizardStep,
} from '../../../../shared/schemas/registration';

/** Every step, in the order any path visits them. */
export const wizardSteps = [
  ...(Object.keys(wizardStepSchemas) as Array<keyof typeof wizardStepSchemas>),
  'review',
] as const satisfies readonly WizardStep[];

export type { WizardStep };

export function isWizardStep(value: unknown): value is WizardStep {
  return typeof value === 'string' && (wizardSteps as readonly string[]).includes(value);
}

/**
 * The steps a customer goes through (the shared wizardStepsFor, which the server also follows). A
 * company names itself and gives an organisation number; a private user in Sweden gives a personal
 * number; a private user elsewhere goes from e-mail straight to the address. Before the customer
 * type is chosen the private path stands in, so the dot bar has something to show; it cannot be
 * used to skip the welcome step, which is not complete until a type is chosen.
 */
export function wizardPath(isPrivateAccount: number | undefined, countryCode: string | undefined): WizardStep[] {
  return wizardStepsFor({
    is_private_account: isPrivateAccount === COMPANY ? COMPANY : PRIVATE,
    countryCode: isRegistrationCountry(countryCode) ? countryCode : DEFAULT_COUNTRY,
  });
}

export function isRegistrationCountry(value: unknown): value is RegistrationCountry {
  return registrationCountries.some((c) => c.code === value);
}

export function nextStep(path: readonly WizardStep[], current: WizardStep): WizardStep | null {
  const i = path.indexOf(current);
  return i >= 0 && i + 1 < path.length ? (path[i + 1] as WizardStep) : null;
}

export function previousStep(path: readonly WizardStep[], current: WizardStep): WizardStep | null {
  const i = path.indexOf(current);
  return i > 0 ? (path[i - 1] as WizardStep) : null;
}

/**
 * The progress dots: back to any earlier step always; forward only when the current step and every
 * step between it and the target are complete (spec section 2).
 */
export function canJumpTo(
  path: readonly WizardStep[],
  current: WizardStep,
  target: WizardStep,
  isComplete: (step: WizardStep) => boolean,
): boolean {
  const from = path.indexOf(current);
  const to = path.indexOf(target);
  if (from < 0 || to < 0) return false;
  if (to <= from) return true;
  return path.slice(from, to).every(isComplete);
}

/** The first step of the path that is not complete, or the last step when all are. */
export function firstIncompleteStep(path: readonly WizardStep[], isComplete: (step: WizardStep) => boolean): WizardStep {
  return path.find((step) => !isComplete(step)) ?? (path[path.length - 1] as WizardStep);
}

/**
 * Where a stored wizard continues: the stored step, unless a step before it is no longer complete
 * (the password is never stored, so a wizard saved on the review step resumes at the password step).
 */
export function resumeStep(path: readonly WizardStep[], saved: WizardStep, isComplete: (step: WizardStep) => boolean): WizardStep {
  const savedAt = path.indexOf(saved);
  if (savedAt < 0) return firstIncompleteStep(path, isComplete);
  const gap = path.slice(0, savedAt).find((step) => !isComplete(step));
  return gap ?? saved;
}

/** What a key press of Enter does in the wizard: go to the next step, nothing at all, or the browser's own action. */
export type EnterAction = 'next' | 'swallow' | 'default';

export interface EnterContext {
  step: WizardStep;
  /** Tag name of the focused element, upper case as the DOM reports it. */
  tagName: string;
  /** `type` of an input or button. */
  type?: string;
  /** Someone already handled the key (a select's option list picks the option on Enter). */
  defaultPrevented: boolean;
  /** An input-method composition is in progress (Enter confirms the composed text). */
  isComposing: boolean;
  /** Modifier keys: Shift+Enter, Ctrl+Enter... are left alone. */
  modified: boolean;
}

/**
 * Enter moves to the next step and never submits (spec section 2). Buttons and links keep their
 * own Enter (Back, a dot, the terms link), a text area keeps its new line, a select its choice.
 * On the review step Enter does nothing: only the Register button registers.
 */
export function enterAction(ctx: EnterContext): EnterAction {
  if (ctx.defaultPrevented || ctx.isComposing || ctx.modified) return 'default';
  const tag = ctx.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'A' || tag === 'BUTTON' || tag === 'SELECT') return 'default';
  if (tag === 'INPUT' && ['button', 'submit', 'reset', 'image', 'file'].includes((ctx.type ?? '').toLowerCase())) return 'default';
  return ctx.step === 'review' ? 'swallow' : 'next';
}
