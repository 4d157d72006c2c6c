/**
 * Every key the registration pages show through data (step names and questions, the server's and
 * the schemas' message keys, the payment method names) has a text in every language.
 */
import { describe, expect, it } from 'vitest';
import { resources } from '../../../../shared/i18n/index';
import { languages } from '../../../../shared/schemas/common';
import { paymentTypesFor } from '../../../../shared/schemas/registration';
import { registrationMessageKeys } from '../../../../shared/schemas/registration-messages';
import { stepNameKey, stepQuestionKey } from './components/step-texts';
import { wizardSteps } from './wizard-flow';

describe('registration texts', () => {
  const keys = [
    ...registrationMessageKeys,
    ...Object.values(stepNameKey),
    ...Object.values(stepQuestionKey),
    ...paymentTypesFor(0).map((p) => p.name),
    'WizardRestored',
    'WizardRestoredPassword',
    'WizardFillStepsFirst',
  ];

  for (const lang of languages) {
    it(`has a ${lang} text for every key the pages show through data`, () => {
      const table = resources[lang] as Record<string, string>;
      expect(keys.filter((key) => !table[key]?.trim())).toEqual([]);
    });
  }

  it('names and asks every step', () => {
    expect(Object.keys(stepNameKey).sort()).toEqual([...wizardSteps].sort());
    expect(Object.keys(stepQuestionKey).sort()).toEqual([...wizardSteps].sort());
  });
});
