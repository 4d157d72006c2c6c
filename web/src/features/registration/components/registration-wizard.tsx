/**
 * The new-design registration wizard (spec sections 2 to 5 and 8): one step at a time, a progress
 * dot bar, the IMEI and e-mail checked on the server, state kept in session storage, and the
 * registration posted from the review step.
 */
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import IconInfoCircle from '@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useForm, type FieldPath, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  PRIVATE,
  reviewStepSchema,
  showsTermsCheckbox,
  WIZARD_NOTICE_SECONDS,
  wizardStepSchemas,
  type RegistrationCountry,
} from '../../../../../shared/schemas/registration';
import { ApiError } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { parseLanguage } from '../../../app/preferences';
import { usePaymentTypes, useRegisterAccount, validateEmail, validateImei } from '../api/registration-api';
import { countryName } from '../countries';
import { canJumpTo, enterAction, nextStep, previousStep, resumeStep, wizardPath, type WizardStep } from '../wizard-flow';
import {
  defaultWizardValues,
  isStepComplete,
  needsInvoiceDialog,
  normalizeEmail,
  normalizeImei,
  stepOfField,
  withCountry,
  wizardPayload,
  type Verified,
  type WizardValues,
} from '../wizard-model';
import { clearWizard, loadWizard, saveWizard } from '../wizard-storage';
import { ProgressDots } from './progress-dots';
import { RegistrationErrorDialog } from './registration-error-dialog';
import { stepNameKey, stepQuestionKey } from './step-texts';
import {
  AddressStep,
  CompanyNameStep,
  CountryStep,
  EmailStep,
  ImeiStep,
  NameStep,
  OrgNumberStep,
  PasswordStep,
  PersonalNumberStep,
  PhoneStep,
  ResellerStep,
  ReviewStep,
  WelcomeStep,
} from './wizard-steps';

/** How long a wizard notice stays (spec section 9). */
export const WIZARD_NOTICE_MS = WIZARD_NOTICE_SECONDS * 1000;

interface Start {
  values: WizardValues;
  step: WizardStep;
  verified: Verified;
  notice: string | null;
}

/** The stored wizard, resumed at its last step unless a step before it is no longer filled in. */
function restore(): Start {
  const defaults = defaultWizardValues();
  const stored = loadWizard(defaults);
  if (!stored) return { values: defaults, step: 'welcome', verified: {}, notice: null };
  const values: WizardValues = { ...defaults, ...stored.values };
  const path = wizardPath(values.is_private_account ?? undefined, values.countryCode);
  const step = resumeStep(path, stored.step, (s) => s !== 'review' && isStepComplete(s, values, stored.verified));
  if (step === 'welcome') return { values, step, verified: stored.verified, notice: null };
  const lostPassword = step === 'password' && stored.step !== 'password';
  return { values, step, verified: stored.verified, notice: lostPassword ? 'WizardRestoredPassword' : 'WizardRestored' };
}

export function RegistrationWizard() {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const brand = useBrand();
  const navigate = useNavigate();
  const [start] = useState(restore);
  const [step, setStep] = useState<WizardStep>(start.step);
  const [verified, setVerified] = useState<Verified>(start.verified);
  const [notice, setNotice] = useState<{ key: string; id: number } | null>(start.notice ? { key: start.notice, id: 0 } : null);
  const [checking, setChecking] = useState(false);
  const [dialogError, setDialogError] = useState<unknown>(null);
  const [invoiceOpen, setInvoiceOpen] = useState(false);
  const [showPasswords, setShowPasswords] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const finished = useRef(false);

  // Each step validates only its own fields, with the shared schema of that step (resolveStep below).
  const form = useForm<WizardValues>({ defaultValues: start.values, mode: 'onTouched', resolver: (v, ctx, opts) => resolveStep(v, ctx, opts) });
  const values = form.watch();
  const isPrivate = values.is_private_account === PRIVATE;
  const path = wizardPath(values.is_private_account ?? undefined, values.countryCode);

  const payment = usePaymentTypes(normalizeImei(values.Imei), lang, brand.id, step === 'review' && isPrivate);
  const paymentTypes = isPrivate ? (payment.data ?? []) : [];
  const offered = paymentTypes.map((p) => p.id);
  const register = useRegisterAccount();

  const review = { offeredPaymentTypes: offered, subsiteId: brand.id };
  const complete = (s: WizardStep) => isStepComplete(s, values, verified, review);

  /** Runs when the user acts, after this render has set `step` and `offered`. */
  function resolveStep(...[v, ctx, opts]: Parameters<Resolver<WizardValues>>): ReturnType<Resolver<WizardValues>> {
    if (step !== 'review') return (zodResolver(wizardStepSchemas[step]) as unknown as Resolver<WizardValues>)(v, ctx, opts);
    // Where the terms checkbox is hidden the terms are pre-accepted.
    const terms = showsTermsCheckbox(brand.id) ? v.terms : true;
    return (zodResolver(reviewStepSchema(offered)) as unknown as Resolver<WizardValues>)({ ...v, terms }, ctx, opts);
  }

  // Kept in storage on every change, without the password (wizard-storage.ts says why).
  useEffect(() => {
    const save = () => {
      if (!finished.current) saveWizard({ step, values: form.getValues(), verified });
    };
    save();
    const subscription = form.watch(save);
    return () => subscription.unsubscribe();
  }, [form, step, verified]);

  // Focus follows the step change to its heading; the live region above announces "Step n of N".
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [step]);

  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => setNotice(null), WIZARD_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice]);

  function showNotice(key: string) {
    setNotice((previous) => ({ key, id: (previous?.id ?? 0) + 1 }));
  }

  function goTo(target: WizardStep) {
    form.clearErrors();
    if (target === 'address' && !form.getValues('country').trim()) {
      form.setValue('country', countryName(form.getValues('countryCode'), lang));
    }
    moved.current = true;
    setStep(target);
  }

  function chooseCustomerType(type: number) {
    form.setValue('is_private_account', type, { shouldDirty: true });
    goTo('country');
  }

  function chooseCountry(country: RegistrationCountry) {
    const next = withCountry(form.getValues(), country);
    form.setValue('countryCode', next.countryCode, { shouldDirty: true });
    form.setValue('countryDialCode', next.countryDialCode);
    form.setValue('phone', next.phone);
  }

  /** The server's check of the IMEI or the e-mail address; its 422 key shows beside the field. */
  async function checkOnServer(field: 'Imei' | 'userName', value: string, call: () => Promise<void>): Promise<boolean> {
    const key = field === 'Imei' ? 'imei' : 'email';
    if (verified[key] === value) return true;
    setChecking(true);
    try {
      await call();
      setVerified((previous) => ({ ...previous, [key]: value }));
      return true;
    } catch (error) {
      const fieldKey = error instanceof ApiError ? (error.fieldErrors[key]?.[0] ?? error.fieldErrors[field]?.[0]) : undefined;
      if (fieldKey) form.setError(field, { type: 'server', message: fieldKey }, { shouldFocus: true });
      else setDialogError(error);
      return false;
    } finally {
      setChecking(false);
    }
  }

  async function onStepValid() {
    if (step === 'imei') {
      const imei = normalizeImei(form.getValues('Imei'));
      if (!(await checkOnServer('Imei', imei, () => validateImei(imei, brand.id)))) return;
    }
    if (step === 'email') {
      const email = normalizeEmail(form.getValues('userName'));
      if (!(await checkOnServer('userName', email, () => validateEmail(email)))) return;
    }
    const next = nextStep(path, step);
    if (next) goTo(next);
  }

  function onRegisterValid() {
    if (needsInvoiceDialog(form.getValues(), offered)) setInvoiceOpen(true);
    else submit();
  }

  function submit() {
    setInvoiceOpen(false);
    const payload = wizardPayload(form.getValues(), path, { subsiteId: brand.id, lang, offeredPaymentTypes: offered });
    register.mutate(payload, {
      onSuccess: () => {
        finished.current = true;
        clearWizard();
        void navigate(paths.login, { state: { notice: 'registered' } });
      },
      onError: showServerErrors,
    });
  }

  /** Spec section 8: field errors beside their fields (on the first step that has one), the message in a dialog. */
  function showServerErrors(error: unknown) {
    if (error instanceof ApiError && error.status === 422) {
      const placed = Object.entries(error.fieldErrors)
        .map(([field, keys]) => ({ field: field === 'fullName' ? 'lastName' : field, key: keys[0], step: stepOfField(field, path) }))
        .filter((e): e is { field: string; key: string; step: WizardStep } => e.step !== null && e.key !== undefined);
      if (placed.length > 0) {
        // The server no longer accepts a checked IMEI or address: it must be checked again.
        if (placed.some((e) => e.field === 'Imei')) setVerified((v) => ({ ...v, imei: undefined }));
        if (placed.some((e) => e.field === 'userName')) setVerified((v) => ({ ...v, email: undefined }));
        const first = path.find((s) => placed.some((e) => e.step === s));
        if (first) goTo(first);
        for (const e of placed) form.setError(e.field as FieldPath<WizardValues>, { type: 'server', message: e.key });
      }
    }
    setDialogError(error);
  }

  function onJump(target: WizardStep) {
    if (target === step) return;
    if (canJumpTo(path, step, target, complete)) goTo(target);
    else showNotice('WizardFillStepsFirst');
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter') return;
    const target = event.target as HTMLElement;
    const action = enterAction({
      step,
      tagName: target.tagName,
      type: target instanceof HTMLInputElement || target instanceof HTMLButtonElement ? target.type : undefined,
      defaultPrevented: event.defaultPrevented,
      isComposing: event.nativeEvent.isComposing,
      modified: event.shiftKey || event.ctrlKey || event.altKey || event.metaKey,
    });
    if (action === 'default') return;
    event.preventDefault();
    if (action === 'next') event.currentTarget.requestSubmit();
  }

  const index = path.indexOf(step);
  const back = previousStep(path, step);
  const heading = step === 'welcome' ? t('WelcomeHeading', { brand: brand.title }) : t(stepQuestionKey[step]);
  const busy = checking || register.isPending;
  const paymentPending = step === 'review' && isPrivate && (payment.isPending || payment.isError);

  function body() {
    const control = form.control;
    switch (step) {
      case 'welcome':
        return <WelcomeStep control={control} onChoose={chooseCustomerType} />;
      case 'country':
        return <CountryStep control={control} lang={lang} onCountry={chooseCountry} />;
      case 'imei':
        return <ImeiStep control={control} />;
      case 'reseller':
        return <ResellerStep control={control} />;
      case 'companyName':
        return <CompanyNameStep control={control} />;
      case 'name':
        return <NameStep control={control} />;
      case 'email':
        return <EmailStep control={control} />;
      case 'personalNumber':
        return <PersonalNumberStep control={control} />;
      case 'orgNumber':
        return <OrgNumberStep control={control} />;
      case 'address':
        return <AddressStep control={control} />;
      case 'phone':
        return <PhoneStep control={control} />;
      case 'password':
        return <PasswordStep control={control} visible={showPasswords} onVisibilityChange={setShowPasswords} />;
      case 'review':
        return (
          <ReviewStep
            control={control}
            values={values}
            path={path}
            brand={brand}
            lang={lang}
            onChange={goTo}
            payment={{
              visible: isPrivate,
              loading: payment.isPending,
              error: payment.isError ? payment.error : null,
              types: paymentTypes,
              retry: () => void payment.refetch(),
            }}
          />
        );
    }
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h3" ta="center">
        {t('RegisterHeading')}
      </Title>
      <ProgressDots path={path} current={step} isComplete={complete} canJumpTo={(s) => canJumpTo(path, step, s, complete)} onJump={onJump} />
      <Text size="sm" c="dimmed" ta="center" aria-live="polite" aria-atomic>
        {/* The number of steps depends on the customer type: said once it is chosen, so it never changes under the user. */}
        {values.is_private_account === undefined || values.is_private_account === null
          ? t('StepNumber', { current: index + 1 })
          : t('StepOfTotal', { current: index + 1, total: path.length })}
        : {t(stepNameKey[step])}
      </Text>
      <div aria-live="polite">
        {notice ? (
          <Alert key={notice.id} variant="light" color="brand" icon={<IconInfoCircle aria-hidden />}>
            {t(notice.key)}
          </Alert>
        ) : null}
      </div>

      <form noValidate onKeyDown={onKeyDown} onSubmit={(event) => void form.handleSubmit(onStepValid)(event)}>
        <Stack gap="md">
          <Title order={2} size="h4" ref={headingRef} tabIndex={-1} className="registration-step-heading">
            {heading}
          </Title>
          {body()}
          <Group justify="space-between" mt="sm" wrap="nowrap">
            {back ? (
              <Button type="button" variant="default" onClick={() => goTo(back)} disabled={busy}>
                {t('Back')}
              </Button>
            ) : (
              <span />
            )}
            {step === 'review' ? (
              <Button
                type="button"
                loading={register.isPending}
                disabled={paymentPending}
                onClick={() => void form.handleSubmit(onRegisterValid)()}
              >
                {t('RegisterButton')}
              </Button>
            ) : step === 'welcome' && values.is_private_account === null ? null : (
              <Button type="submit" loading={checking}>
                {t('Next')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>

      <Modal opened={invoiceOpen} onClose={() => setInvoiceOpen(false)} title={t('InvoiceDialogTitle')} centered closeButtonProps={{ 'aria-label': t('CloseDialog') }}>
        <Text>{t('InvoiceDialogText', { email: normalizeEmail(values.userName) })}</Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setInvoiceOpen(false)}>
            {t('Cancel')}
          </Button>
          <Button onClick={submit} loading={register.isPending} data-autofocus>
            {t('InvoiceDialogConfirm')}
          </Button>
        </Group>
      </Modal>
      <RegistrationErrorDialog error={dialogError} onClose={() => setDialogError(null)} />
    </Stack>
  );
}

