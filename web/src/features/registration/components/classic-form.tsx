/**
 * The classic sign-up form (spec section 2): Unit, Login info and Customer details on one page,
 * shown when the root element does not flag the new design (design.ts). Validated with the shared
 * classicFormSchema; the server's 422 field errors land beside the same fields.
 */
import { Anchor, Button, Fieldset, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useController, useForm, useWatch, type Control, type FieldPath, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  COMPANY,
  DEFAULT_COUNTRY,
  NO_PAYMENT_TYPE,
  classicFormSchema,
  dialCodeOf,
  namesUnitedKingdom,
  registrationMaxLengths,
  showsTermsCheckbox,
  type RegisterAccountRequest,
} from '../../../../../shared/schemas/registration';
import type { Language } from '../../../../../shared/schemas/common';
// Also fills the slot through which the form's rules check the phones.
import { defaultPhoneCountry, PHONE_INPUT_MAX } from '../../../../../shared/validators/phone';
import { ApiError } from '../../../app/api-client';
import { useBrand } from '../../../app/brand-context';
import { paths } from '../../../app/paths';
import { parseLanguage } from '../../../app/preferences';
import { useRegisterAccount } from '../api/registration-api';
import { phoneCountryOptions } from '../countries';
import { isRegistrationCountry } from '../wizard-flow';
import { NewPasswordFields, TermsField, TextAreaField, TextField, useFieldError } from './form-fields';
import { postalCodeInput } from './postal-code-input';
import { RegistrationErrorDialog } from './registration-error-dialog';

export interface ClassicValues {
  Imei: string;
  reseller: string;
  comment: string;
  fullName: string;
  userName: string;
  userPassword: string;
  userPassword_confirmation: string;
  companyName: string;
  acc_company_phone: string;
  contactPerson: string;
  address: string;
  zipCode: string;
  city: string;
  country: string;
  /** ISO code chosen in the phone's country picker; countryDialCode follows it. */
  phoneCountry: string;
  phone: string;
  countryDialCode: string;
  terms: boolean;
}

/** The phone's country starts as the page language's: Sweden, or Norway in Norwegian. */
function defaultClassicValues(lang: Language = 'en'): ClassicValues {
  const phoneCountry = defaultPhoneCountry(lang);
  return {
    Imei: '',
    reseller: '',
    comment: '',
    fullName: '',
    userName: '',
    userPassword: '',
    userPassword_confirmation: '',
    companyName: '',
    acc_company_phone: '',
    contactPerson: '',
    address: '',
    zipCode: '',
    city: '',
    country: '',
    phoneCountry,
    phone: '',
    countryDialCode: dialCodeOf(phoneCountry),
    terms: false,
  };
}

/** The payload of the classic form: a company registration; the comment only where the form asks for it (brand 0). */
export function classicPayload(values: ClassicValues, ctx: { subsiteId: number; lang: 'en' | 'sv' | 'no' }): RegisterAccountRequest {
  const { phoneCountry, ...fields } = values;
  return {
    ...fields,
    form: 'classic',
    userName: fields.userName.trim().toLowerCase(),
    comment: showsComment(ctx.subsiteId) ? fields.comment : '',
    personal_org_number: '',
    is_private_account: COMPANY,
    countryCode: isRegistrationCountry(phoneCountry) ? phoneCountry : DEFAULT_COUNTRY,
    terms: showsTermsCheckbox(ctx.subsiteId) ? fields.terms : true,
    subsiteID: ctx.subsiteId,
    paymentType: NO_PAYMENT_TYPE,
    lang: ctx.lang,
  };
}

/** Spec section 2: the classic form asks for a comment on subsite 0 only. */
export const showsComment = (subsiteId: number): boolean => subsiteId === 0;

function PhoneCountrySelect({ control, lang }: { control: Control<ClassicValues>; lang: 'en' | 'sv' | 'no' }) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'phoneCountry' });
  const { field: dial } = useController({ control, name: 'countryDialCode' });
  const options = useMemo(() => phoneCountryOptions(lang), [lang]);
  return (
    <Select
      label={t('PhoneCountryLabel')}
      data={options.map((o) => ({ value: o.value, label: o.label }))}
      value={field.value}
      onChange={(value) => {
        const option = options.find((o) => o.value === value);
        if (!option) return;
        field.onChange(option.value);
        dial.onChange(option.dialCode);
      }}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('PhoneCountryNothingFound')}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={260}
    />
  );
}

/** Section titles read as headings of the three parts of the form. */
const legendStyles = { legend: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)', marginBottom: 'var(--mantine-spacing-xs)' } };

export function ClassicRegistrationForm() {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language) ?? 'en';
  const brand = useBrand();
  const navigate = useNavigate();
  const [showPasswords, setShowPasswords] = useState(false);
  const [dialogError, setDialogError] = useState<unknown>(null);
  const register = useRegisterAccount();
  const termsShown = showsTermsCheckbox(brand.id);

  const resolver: Resolver<ClassicValues> = (values, ctx, opts) =>
    (zodResolver(classicFormSchema) as unknown as Resolver<ClassicValues>)({ ...values, terms: termsShown ? values.terms : true }, ctx, opts);
  const form = useForm<ClassicValues>({ defaultValues: defaultClassicValues(lang), resolver, mode: 'onTouched' });
  const control = form.control;
  const addressCountry = useWatch({ control, name: 'country' });
  const termsError = useFieldError(form.formState.errors.terms?.message);

  function onValid() {
    register.mutate(classicPayload(form.getValues(), { subsiteId: brand.id, lang }), {
      onSuccess: () => void navigate(paths.login, { state: { notice: 'registered' } }),
      onError: (error) => {
        if (error instanceof ApiError && error.status === 422) {
          const fields = Object.keys(defaultClassicValues());
          let focused = false;
          for (const [field, keys] of Object.entries(error.fieldErrors)) {
            if (!fields.includes(field) || !keys[0]) continue;
            form.setError(field as FieldPath<ClassicValues>, { type: 'server', message: keys[0] }, { shouldFocus: !focused });
            focused = true;
          }
        }
        setDialogError(error);
      },
    });
  }

  return (
    <Stack gap="md">
      <Title order={1} size="h3" ta="center">
        {t('RegisterHeading')}
      </Title>
      <Text size="sm" c="dimmed" ta="center">
        {t('RegisterIntro')}
      </Text>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onValid)(event)}>
        <Stack gap="lg">
          <Fieldset legend={t('ClassicUnitSection')} variant="unstyled" styles={legendStyles}>
            <Stack gap="sm">
              <TextField control={control} name="Imei" label={t('ImeiLabel')} hint={t('ImeiHint')} required inputMode="numeric" autoComplete="off" max={15} showCounter={false} />
              <TextField control={control} name="reseller" label={t('ResellerLabel')} required max={registrationMaxLengths.reseller} />
              {showsComment(brand.id) ? <TextAreaField control={control} name="comment" label={t('CommentLabel')} max={registrationMaxLengths.comment} /> : null}
            </Stack>
          </Fieldset>

          <Fieldset legend={t('ClassicLoginSection')} variant="unstyled" styles={legendStyles}>
            <Stack gap="sm">
              <TextField control={control} name="fullName" label={t('FullNameLabel')} required autoComplete="name" max={registrationMaxLengths.name} />
              <TextField control={control} name="userName" type="email" label={t('UsernameEmailLabel')} required autoComplete="email" />
              <NewPasswordFields control={control} visible={showPasswords} onVisibilityChange={setShowPasswords} />
            </Stack>
          </Fieldset>

          <Fieldset legend={t('ClassicCustomerSection')} variant="unstyled" styles={legendStyles}>
            <Stack gap="sm">
              <TextField control={control} name="companyName" label={t('CompanyNameLabel')} autoComplete="organization" max={registrationMaxLengths.companyName} />
              <TextField
                control={control}
                name="acc_company_phone"
                label={t('CompanyPhoneLabel')}
                hint={t('CompanyPhoneHint')}
                required
                type="tel"
                inputMode="tel"
                autoComplete="off"
                max={PHONE_INPUT_MAX}
                showCounter={false}
              />
              <TextField control={control} name="contactPerson" label={t('ContactPersonLabel')} required autoComplete="name" max={registrationMaxLengths.contactPerson} />
              <TextField control={control} name="address" label={t('AddressLabel')} required autoComplete="street-address" max={registrationMaxLengths.street} />
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <TextField control={control} name="zipCode" label={t('ZipCodeLabel')} required {...postalCodeInput(namesUnitedKingdom(addressCountry ?? ''))} />
                <TextField control={control} name="city" label={t('CityLabel')} required autoComplete="address-level2" max={registrationMaxLengths.city} />
              </SimpleGrid>
              <TextField control={control} name="country" label={t('AddressCountryLabel')} required autoComplete="country-name" max={registrationMaxLengths.country} />
              <PhoneCountrySelect control={control} lang={lang} />
              <TextField control={control} name="phone" label={t('TelephoneLabel')} hint={t('PhoneHint')} required type="tel" inputMode="tel" autoComplete="tel-national" max={PHONE_INPUT_MAX} showCounter={false} />
              {termsShown ? <TermsField control={control} href={brand.termsUrl[lang]} /> : null}
              {!termsShown && termsError ? <Text c="red.8">{termsError}</Text> : null}
            </Stack>
          </Fieldset>

          <Button type="submit" fullWidth size="md" loading={register.isPending}>
            {t('RegisterButton')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('AlreadyRegistered')}{' '}
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('LogInInstead')}
        </Anchor>
      </Text>
      <RegistrationErrorDialog error={dialogError} onClose={() => setDialogError(null)} />
    </Stack>
  );
}
