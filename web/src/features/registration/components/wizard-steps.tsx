/**
 * The fields of each wizard step (spec section 2). The container (registration-wizard.tsx) owns
 * navigation, server checks and submission; these only render fields bound to the one form.
 */
import { Alert, Anchor, Button, Group, Loader, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import IconBuildingSkyscraper from '@tabler/icons-react/dist/esm/icons/IconBuildingSkyscraper.mjs';
import IconUser from '@tabler/icons-react/dist/esm/icons/IconUser.mjs';
import { Fragment, type ReactNode } from 'react';
import { useController, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Brand } from '../../../../../shared/brands';
import type { Language } from '../../../../../shared/schemas/common';
import {
  COMPANY,
  EMAIL_MAX_LENGTH,
  PRIVATE,
  registrationCountries,
  registrationMaxLengths,
  showsTermsCheckbox,
  type PaymentType,
  type RegistrationCountry,
} from '../../../../../shared/schemas/registration';
import { errorMessage } from '../../../app/api-client';
import { paths } from '../../../app/paths';
import { countryName } from '../countries';
import type { WizardStep } from '../wizard-flow';
import { formatPhone, PHONE_INPUT_MAX } from '../../../../../shared/validators/phone';
import { normalizeEmail, type WizardValues } from '../wizard-model';
import { NewPasswordFields, TermsField, TextAreaField, TextField, useFieldError } from './form-fields';
import { postalCodeInput } from './postal-code-input';

interface StepProps {
  control: Control<WizardValues>;
}

export function WelcomeStep({ control, onChoose }: StepProps & { onChoose: (isPrivate: number) => void }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'is_private_account' });
  const error = useFieldError(fieldState.error?.message);
  const choices = [
    { value: COMPANY, label: t('CustomerCompany'), hint: t('CustomerCompanyHint'), icon: <IconBuildingSkyscraper aria-hidden size={28} /> },
    { value: PRIVATE, label: t('CustomerPrivate'), hint: t('CustomerPrivateHint'), icon: <IconUser aria-hidden size={28} /> },
  ];
  return (
    <Stack gap="md">
      <div role="group" aria-labelledby="registration-customer-type" aria-describedby={error ? 'registration-customer-type-error' : undefined}>
        <Text id="registration-customer-type" fw={600} mb="xs">
          {t('WelcomeQuestion')}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {choices.map((choice) => {
            const chosen = field.value === choice.value;
            return (
              <Button
                key={choice.value}
                ref={choice.value === COMPANY ? field.ref : undefined}
                type="button"
                variant={chosen ? 'filled' : 'default'}
                aria-pressed={chosen}
                h="auto"
                py="md"
                onClick={() => onChoose(choice.value)}
                styles={{ label: { whiteSpace: 'normal' } }}
              >
                <Stack gap={4} align="center">
                  {choice.icon}
                  <Text fw={700} inherit>
                    {choice.label}
                  </Text>
                  <Text size="sm" inherit fw={400}>
                    {choice.hint}
                  </Text>
                </Stack>
              </Button>
            );
          })}
        </SimpleGrid>
        {error ? (
          <Text id="registration-customer-type-error" c="red.8" size="sm" mt="xs">
            {error}
          </Text>
        ) : null}
      </div>
      <Text size="sm" ta="center">
        {t('AlreadyRegistered')}{' '}
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('LogInInstead')}
        </Anchor>
      </Text>
    </Stack>
  );
}

export function CountryStep({ control, lang, onCountry }: StepProps & { lang: Language; onCountry: (country: RegistrationCountry) => void }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'countryCode' });
  const error = useFieldError(fieldState.error?.message);
  return (
    <Radio.Group
      name={field.name}
      label={t('CountryLabel')}
      value={field.value}
      onChange={(value) => onCountry(value as RegistrationCountry)}
      error={error}
    >
      <Stack gap="sm" mt="xs">
        {registrationCountries.map((c, i) => (
          <Radio
            key={c.code}
            ref={i === 0 ? field.ref : undefined}
            value={c.code}
            label={`${countryName(c.code, lang)} (+${c.dialCode})`}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}

export function ImeiStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <TextField
      control={control}
      name="Imei"
      label={t('ImeiLabel')}
      hint={t('ImeiHint')}
      required
      inputMode="numeric"
      autoComplete="off"
      max={15}
      showCounter={false}
    />
  );
}

export function ResellerStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <TextField control={control} name="reseller" label={t('ResellerLabel')} hint={t('ResellerHint')} required max={registrationMaxLengths.reseller} />
      <TextAreaField control={control} name="comment" label={t('CommentLabel')} max={registrationMaxLengths.comment} />
    </Stack>
  );
}

export function CompanyNameStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <TextField control={control} name="companyName" label={t('CompanyNameLabel')} required autoComplete="organization" max={registrationMaxLengths.companyName} />
  );
}

export function NameStep({ control }: StepProps) {
  const { t } = useTranslation();
  const [first = '', last = ''] = useWatch({ control, name: ['firstName', 'lastName'] });
  const left = registrationMaxLengths.name - first.length - last.length;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('NameLengthHint', { max: registrationMaxLengths.name })}
      </Text>
      <TextField control={control} name="firstName" label={t('FirstNameLabel')} required autoComplete="given-name" max={registrationMaxLengths.name} remaining={left} />
      <TextField control={control} name="lastName" label={t('LastNameLabel')} required autoComplete="family-name" max={registrationMaxLengths.name} remaining={left} />
    </Stack>
  );
}

export function EmailStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <TextField
      control={control}
      name="userName"
      type="email"
      label={t('EmailLabel')}
      hint={t('EmailUsernameHint')}
      required
      autoComplete="email"
      max={EMAIL_MAX_LENGTH}
      showCounter={false}
    />
  );
}

export function PersonalNumberStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <TextField
      control={control}
      name="personal_org_number"
      label={t('PersonalNumberLabel')}
      hint={t('PersonalNumberHint')}
      required
      inputMode="numeric"
      autoComplete="off"
      max={13}
      showCounter={false}
    />
  );
}

export function OrgNumberStep({ control }: StepProps) {
  const { t } = useTranslation();
  return (
    <TextField
      control={control}
      name="personal_org_number"
      label={t('OrgNumberLabel')}
      hint={t('OrgNumberHint')}
      required
      autoComplete="off"
      max={registrationMaxLengths.orgNumber}
    />
  );
}

export function AddressStep({ control }: StepProps) {
  const { t } = useTranslation();
  const unitedKingdom = useWatch({ control, name: 'countryCode' }) === 'GB';
  return (
    <Stack gap="md">
      <TextField control={control} name="address" label={t('StreetLabel')} required autoComplete="street-address" max={registrationMaxLengths.street} />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextField
          control={control}
          name="zipCode"
          label={t('PostalCodeLabel')}
          required
          {...postalCodeInput(unitedKingdom)}
        />
        <TextField control={control} name="city" label={t('CityLabel')} required autoComplete="address-level2" max={registrationMaxLengths.city} />
      </SimpleGrid>
      <TextField control={control} name="country" label={t('AddressCountryLabel')} required autoComplete="country-name" max={registrationMaxLengths.country} />
    </Stack>
  );
}

export function PhoneStep({ control }: StepProps) {
  const { t } = useTranslation();
  const dial = useWatch({ control, name: 'countryDialCode' });
  return (
    <Group align="flex-start" gap="sm" wrap="nowrap">
      <TextInput label={t('DialCodeLabel')} value={`+${dial}`} readOnly w={120} styles={{ input: { backgroundColor: 'var(--mantine-color-gray-1)' } }} />
      <TextField
        control={control}
        name="phone"
        label={t('PhoneLabel')}
        hint={t('PhoneHint')}
        required
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        max={PHONE_INPUT_MAX}
        showCounter={false}
        style={{ flex: 1 }}
      />
    </Group>
  );
}

export function PasswordStep({ control, visible, onVisibilityChange }: StepProps & { visible: boolean; onVisibilityChange: (v: boolean) => void }) {
  return (
    <Stack gap="md">
      <NewPasswordFields control={control} visible={visible} onVisibilityChange={onVisibilityChange} />
    </Stack>
  );
}

interface ReviewStepProps extends StepProps {
  values: WizardValues;
  path: readonly WizardStep[];
  brand: Brand;
  lang: Language;
  onChange: (step: WizardStep) => void;
  payment: { visible: boolean; loading: boolean; error: unknown; types: readonly PaymentType[]; retry: () => void };
}

export function ReviewStep({ control, values, path, brand, lang, onChange, payment }: ReviewStepProps) {
  const { t } = useTranslation();
  const none = t('SummaryNone');
  const rows: Array<{ step: WizardStep; label: string; value: ReactNode }> = [
    { step: 'welcome', label: t('SummaryCustomerType'), value: values.is_private_account === PRIVATE ? t('CustomerPrivate') : t('CustomerCompany') },
    { step: 'country', label: t('CountryLabel'), value: countryName(values.countryCode, lang) },
    { step: 'imei', label: t('ImeiLabel'), value: values.Imei },
    { step: 'reseller', label: t('ResellerLabel'), value: values.reseller },
    { step: 'reseller', label: t('CommentLabel'), value: values.comment.trim() || none },
    { step: 'companyName', label: t('CompanyNameLabel'), value: values.companyName },
    { step: 'name', label: t('SummaryName'), value: `${values.firstName} ${values.lastName}` },
    { step: 'email', label: t('EmailLabel'), value: normalizeEmail(values.userName) },
    { step: 'personalNumber', label: t('PersonalNumberLabel'), value: values.personal_org_number },
    { step: 'orgNumber', label: t('OrgNumberLabel'), value: values.personal_org_number },
    {
      step: 'address',
      label: t('SummaryAddress'),
      value: (
        <>
          {values.address}
          <br />
          {values.zipCode} {values.city}
          <br />
          {values.country}
        </>
      ),
    },
    { step: 'phone', label: t('SummaryPhone'), value: formatPhone(values.phone, values.countryDialCode) },
  ];
  return (
    <Stack gap="lg">
      <dl className="registration-summary">
        {rows
          .filter((row) => path.includes(row.step))
          .map((row) => (
            <Fragment key={`${row.step}-${row.label}`}>
              <dt>{row.label}</dt>
              <dd>
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <span>{row.value}</span>
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    className="registration-summary-change"
                    onClick={() => onChange(row.step)}
                    aria-label={`${t('ChangeStep')}: ${row.label}`}
                  >
                    {t('ChangeStep')}
                  </Anchor>
                </Group>
              </dd>
            </Fragment>
          ))}
      </dl>
      {payment.visible ? <PaymentChoice control={control} {...payment} /> : null}
      {showsTermsCheckbox(brand.id) ? <TermsField control={control} href={brand.termsUrl[lang]} /> : null}
    </Stack>
  );
}

function PaymentChoice({ control, loading, error, types, retry }: StepProps & ReviewStepProps['payment']) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name: 'paymentType' });
  const fieldError = useFieldError(fieldState.error?.message);
  if (loading) {
    return (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">{t('PaymentTypesLoading')}</Text>
      </Group>
    );
  }
  if (error) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={retry}>
          {t('TryAgain')}
        </Button>
      </Alert>
    );
  }
  if (types.length === 0) return null;
  return (
    <Radio.Group
      name={field.name}
      label={t('PaymentMethodLabel')}
      value={String(field.value)}
      onChange={(value) => field.onChange(Number(value))}
      error={fieldError}
      required
    >
      <Stack gap="sm" mt="xs">
        {types.map((type, i) => (
          <Radio key={type.id} ref={i === 0 ? field.ref : undefined} value={String(type.id)} label={t(type.name)} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
