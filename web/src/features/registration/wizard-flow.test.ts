import { describe, expect, it } from 'vitest';
import { COMPANY, PRIVATE } from '../../../../shared/schemas/registration';
import {
  canJumpTo,
  enterAction,
  firstIncompleteStep,
  isWizardStep,
  nextStep,
  previousStep,
  resumeStep,
  wizardPath,
  wizardSteps,
  type EnterContext,
  type WizardStep,
} from './wizard-flow';

const companySE = wizardPath(COMPANY, 'SE');
const privateSE = wizardPath(PRIVATE, 'SE');
const privateNO = wizardPath(PRIVATE, 'NO');
const privateGB = wizardPath(PRIVATE, 'GB');

describe('wizard paths (spec sections 2 and 4)', () => {
  it('asks a company for its name and organisation number, never for a personal number', () => {
    expect(companySE).toEqual([
      'welcome', 'country', 'imei', 'reseller', 'companyName', 'name', 'email', 'orgNumber', 'address', 'phone', 'password', 'review',
    ]);
    expect(wizardPath(COMPANY, 'NO')).toEqual(companySE);
  });

  it('asks a private user in Sweden for a personal number, and one elsewhere for neither number', () => {
    expect(privateSE).toEqual(['welcome', 'country', 'imei', 'reseller', 'name', 'email', 'personalNumber', 'address', 'phone', 'password', 'review']);
    expect(privateNO).toEqual(['welcome', 'country', 'imei', 'reseller', 'name', 'email', 'address', 'phone', 'password', 'review']);
    expect(privateGB).toEqual(privateNO);
  });

  it('shows the private path in Sweden before a customer type or a known country is chosen', () => {
    expect(wizardPath(undefined, 'SE')).toEqual(privateSE);
    expect(wizardPath(PRIVATE, 'XX')).toEqual(privateSE);
  });

  it('knows its step names', () => {
    expect(wizardSteps).toHaveLength(13);
    expect(isWizardStep('review')).toBe(true);
    expect(isWizardStep('payment')).toBe(false);
    expect(isWizardStep(3)).toBe(false);
  });
});

describe('forward and back', () => {
  it('goes from the IMEI to the reseller, and from the reseller to the company name (company) or the name (private)', () => {
    expect(nextStep(companySE, 'imei')).toBe('reseller');
    expect(nextStep(companySE, 'reseller')).toBe('companyName');
    expect(nextStep(companySE, 'companyName')).toBe('name');
    expect(nextStep(privateSE, 'reseller')).toBe('name');
  });

  it('goes from the e-mail to the personal number (private, Sweden), the address (private elsewhere) or the organisation number (company)', () => {
    expect(nextStep(privateSE, 'email')).toBe('personalNumber');
    expect(nextStep(privateSE, 'personalNumber')).toBe('address');
    expect(nextStep(privateNO, 'email')).toBe('address');
    expect(nextStep(companySE, 'email')).toBe('orgNumber');
    expect(nextStep(companySE, 'orgNumber')).toBe('address');
  });

  it('goes back from the name to the company name (company) or the reseller (private)', () => {
    expect(previousStep(companySE, 'name')).toBe('companyName');
    expect(previousStep(privateSE, 'name')).toBe('reseller');
    expect(previousStep(privateGB, 'name')).toBe('reseller');
  });

  it('goes back from the address to the personal number (private, Sweden), the e-mail (other private) or the organisation number (company)', () => {
    expect(previousStep(privateSE, 'address')).toBe('personalNumber');
    expect(previousStep(privateNO, 'address')).toBe('email');
    expect(previousStep(privateGB, 'address')).toBe('email');
    expect(previousStep(companySE, 'address')).toBe('orgNumber');
  });

  it('has no step before the welcome, none after the review, and none for a step off the path', () => {
    expect(previousStep(privateSE, 'welcome')).toBeNull();
    expect(nextStep(privateSE, 'review')).toBeNull();
    expect(nextStep(privateSE, 'orgNumber')).toBeNull();
    expect(previousStep(privateSE, 'companyName')).toBeNull();
  });
});

describe('progress dots', () => {
  const filled = (steps: WizardStep[]) => (s: WizardStep) => steps.includes(s);

  it('always goes back', () => {
    expect(canJumpTo(privateSE, 'address', 'welcome', () => false)).toBe(true);
    expect(canJumpTo(privateSE, 'address', 'address', () => false)).toBe(true);
  });

  it('goes forward only when the current step and every step between are filled in', () => {
    const done = filled(['welcome', 'country', 'imei', 'reseller', 'name']);
    expect(canJumpTo(privateSE, 'imei', 'email', done)).toBe(true);
    expect(canJumpTo(privateSE, 'imei', 'personalNumber', done)).toBe(false);
    // The target itself need not be filled in.
    expect(canJumpTo(privateSE, 'welcome', 'email', done)).toBe(true);
    // A gap in between closes every dot after it.
    const gap = filled(['welcome', 'country', 'reseller', 'name', 'email']);
    expect(canJumpTo(privateSE, 'welcome', 'imei', gap)).toBe(true);
    expect(canJumpTo(privateSE, 'welcome', 'reseller', gap)).toBe(false);
    // An unfilled current step closes the way forward.
    expect(canJumpTo(privateSE, 'imei', 'reseller', filled(['welcome', 'country']))).toBe(false);
  });

  it('refuses steps that are not on the path', () => {
    expect(canJumpTo(privateSE, 'welcome', 'orgNumber', () => true)).toBe(false);
    expect(canJumpTo(privateSE, 'companyName', 'welcome', () => true)).toBe(false);
  });
});

describe('resuming a stored wizard', () => {
  const allBut = (missing: WizardStep[]) => (s: WizardStep) => !missing.includes(s);

  it('continues at the stored step when every step before it is filled in', () => {
    expect(resumeStep(privateSE, 'address', allBut(['address', 'phone', 'password']))).toBe('address');
  });

  it('continues at the first gap before the stored step: the password, which is never stored', () => {
    expect(resumeStep(privateSE, 'review', allBut(['password', 'review']))).toBe('password');
    expect(resumeStep(companySE, 'phone', allBut(['imei', 'phone']))).toBe('imei');
  });

  it('starts at the first unfilled step when the stored step is not on the path', () => {
    expect(resumeStep(privateNO, 'personalNumber', allBut(['email', 'address']))).toBe('email');
    expect(firstIncompleteStep(privateNO, () => true)).toBe('review');
  });
});

describe('Enter', () => {
  const ctx = (over: Partial<EnterContext>): EnterContext => ({
    step: 'imei',
    tagName: 'INPUT',
    type: 'text',
    defaultPrevented: false,
    isComposing: false,
    modified: false,
    ...over,
  });

  it('moves to the next step from a field', () => {
    expect(enterAction(ctx({}))).toBe('next');
    expect(enterAction(ctx({ step: 'country', type: 'radio' }))).toBe('next');
    expect(enterAction(ctx({ step: 'password', type: 'password' }))).toBe('next');
  });

  it('never submits: on the review step it does nothing', () => {
    expect(enterAction(ctx({ step: 'review', type: 'checkbox' }))).toBe('swallow');
    expect(enterAction(ctx({ step: 'review', type: 'radio' }))).toBe('swallow');
  });

  it('leaves buttons, links, text areas, select lists and input methods alone', () => {
    expect(enterAction(ctx({ tagName: 'BUTTON', type: 'button' }))).toBe('default');
    expect(enterAction(ctx({ step: 'review', tagName: 'BUTTON', type: 'button' }))).toBe('default');
    expect(enterAction(ctx({ tagName: 'a', type: undefined }))).toBe('default');
    expect(enterAction(ctx({ step: 'reseller', tagName: 'TEXTAREA', type: undefined }))).toBe('default');
    expect(enterAction(ctx({ type: 'submit' }))).toBe('default');
    expect(enterAction(ctx({ defaultPrevented: true }))).toBe('default');
    expect(enterAction(ctx({ isComposing: true }))).toBe('default');
    expect(enterAction(ctx({ modified: true }))).toBe('default');
  });
});
