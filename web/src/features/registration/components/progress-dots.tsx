import { UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WizardStep } from '../wizard-flow';
import { stepNameKey } from './step-texts';

interface ProgressDotsProps {
  path: readonly WizardStep[];
  current: WizardStep;
  isComplete: (step: WizardStep) => boolean;
  canJumpTo: (step: WizardStep) => boolean;
  onJump: (step: WizardStep) => void;
}

/**
 * The progress dot bar (spec section 2): a nav of one button per step. Earlier steps are always
 * open; later ones only when every step between is filled in. A closed dot stays focusable
 * (aria-disabled, not disabled) so that choosing it can say why it does not open.
 */
export function ProgressDots({ path, current, isComplete, canJumpTo, onJump }: ProgressDotsProps) {
  const { t } = useTranslation();
  const currentIndex = path.indexOf(current);
  return (
    <nav aria-label={t('RegistrationProgress')}>
      <ol className="registration-dots">
        {path.map((step, index) => {
          const isCurrent = step === current;
          const open = canJumpTo(step);
          const done = index < currentIndex || (open && isComplete(step));
          const state = isCurrent ? 'current' : done ? 'done' : 'todo';
          const label = [
            t('GoToStep', { number: index + 1, name: t(stepNameKey[step]) }),
            !isCurrent && done ? t('StepDone') : null,
            open ? null : t('StepLocked'),
          ]
            .filter(Boolean)
            .join(', ');
          return (
            <li key={step}>
              <UnstyledButton
                type="button"
                className="registration-dot"
                data-state={state}
                aria-current={isCurrent ? 'step' : undefined}
                aria-disabled={open ? undefined : true}
                aria-label={label}
                title={t(stepNameKey[step])}
                onClick={() => onJump(step)}
              >
                <span aria-hidden className="registration-dot-mark" />
              </UnstyledButton>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
