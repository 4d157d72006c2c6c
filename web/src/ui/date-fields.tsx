/**
 * The portal's date and time inputs (spec section 5: date input format yyyy-MM-dd). A native
 * `<input type="date">` or `type="time"` shows the browser's locale (11/30/2026, 2:30 PM) whatever
 * language the portal speaks; these show yyyy-MM-dd and 24-hour time in every language, with the
 * calendar's month and weekday names in the portal's language. Values in and out are the strings
 * the native inputs gave: `yyyy-MM-dd`, `HH:mm` and `yyyy-MM-ddTHH:mm`, '' while empty.
 *
 * The date is a text box (typed or picked from the calendar, which opens from the box and is
 * driven by the arrow keys); the time is a text box that takes 930, 9.30 or 09:30 and shows 09:30.
 */
import '@mantine/dates/styles.css';
import { TextInput, type TextInputProps } from '@mantine/core';
import { DateInput, type DateInputProps } from '@mantine/dates';
import 'dayjs/locale/nb';
import 'dayjs/locale/sv';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/i18n';
import { normaliseTime } from './date-values';

/** What the three fields take of a text input's props besides the value. */
type FieldProps = Pick<
  TextInputProps,
  'label' | 'aria-label' | 'description' | 'error' | 'required' | 'disabled' | 'readOnly' | 'name' | 'w' | 'miw' | 'maw' | 'style'
> & { onBlur?: () => void; 'data-testid'?: string };

/** dayjs's names of the portal's languages (Norwegian is Bokmål). */
const DAYJS_LOCALES = { en: 'en', sv: 'sv', no: 'nb' } as const;

/**
 * The calendar's controls, named in the portal's language (the month and year buttons are named by
 * what they show). Days of other months are left out, as their dimmed numbers would be too faint
 * to read; the calendar opens inside the page or dialog it belongs to, so a screen reader finds it
 * in that landmark.
 */
function useCalendarTexts(): Pick<DateInputProps, 'locale' | 'ariaLabels' | 'nextLabel' | 'previousLabel' | 'firstDayOfWeek' | 'hideOutsideDates' | 'popoverProps'> {
  const { t } = useTranslation();
  return {
    locale: DAYJS_LOCALES[currentLanguage()],
    // The week starts on Monday in all three languages' countries (en is en-GB).
    firstDayOfWeek: 1,
    hideOutsideDates: true,
    popoverProps: { withinPortal: false },
    nextLabel: t('DateFieldNextMonth'),
    previousLabel: t('DateFieldPreviousMonth'),
    ariaLabels: {
      nextMonth: t('DateFieldNextMonth'),
      previousMonth: t('DateFieldPreviousMonth'),
      nextYear: t('DateFieldNextYear'),
      previousYear: t('DateFieldPreviousYear'),
      nextDecade: t('DateFieldNextDecade'),
      previousDecade: t('DateFieldPreviousDecade'),
    },
  };
}

/** Exactly `yyyy-MM-dd` (or `yyyy-MM-dd HH:mm` with `withTime`) and a real day; null otherwise. */
function strictParser(withTime: boolean) {
  const pattern = withTime ? /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2})[:.](\d{2})$/ : /^(\d{4})-(\d{2})-(\d{2})$/;
  return (text: string): string | null => {
    const match = pattern.exec(text.trim());
    if (!match) return null;
    const [, y, m, d, hh, mm] = match;
    const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
    if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) return null;
    if (!withTime) return `${y}-${m}-${d}`;
    if (Number(hh) > 23 || Number(mm) > 59) return null;
    return `${y}-${m}-${d} ${String(hh).padStart(2, '0')}:${mm}:00`;
  };
}

const parseDay = strictParser(false);
const parseDayTime = strictParser(true);

interface DateFieldProps extends FieldProps {
  /** `yyyy-MM-dd`, or '' while empty. */
  value: string;
  onChange: (value: string) => void;
  /** The earliest and latest day that may be picked, `yyyy-MM-dd`. */
  minDate?: string;
  maxDate?: string;
  clearable?: boolean;
}

/** A day, shown and typed as yyyy-MM-dd in every language. */
export function DateField({ value, onChange, minDate, maxDate, clearable, onBlur, ...field }: DateFieldProps) {
  const { t } = useTranslation();
  const calendar = useCalendarTexts();
  return (
    <DateInput
      {...field}
      {...calendar}
      valueFormat="YYYY-MM-DD"
      dateParser={parseDay}
      placeholder={t('DateFieldPlaceholder')}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      onBlur={onBlur}
      minDate={minDate}
      maxDate={maxDate}
      clearable={clearable}
      clearButtonProps={{ 'aria-label': t('DateFieldClear') }}
      allowDeselect={false}
      autoComplete="off"
    />
  );
}

interface DateTimeFieldProps extends FieldProps {
  /** `yyyy-MM-ddTHH:mm`, or '' while empty. */
  value: string;
  onChange: (value: string) => void;
  /** The latest moment that may be picked, `yyyy-MM-ddTHH:mm`. */
  max?: string;
}

/** A moment, shown and typed as yyyy-MM-dd HH:mm (24-hour) in every language. */
export function DateTimeField({ value, onChange, max, onBlur, ...field }: DateTimeFieldProps) {
  const { t } = useTranslation();
  const calendar = useCalendarTexts();
  return (
    <DateInput
      {...field}
      {...calendar}
      valueFormat="YYYY-MM-DD HH:mm"
      dateParser={parseDayTime}
      withTime
      placeholder={t('DateTimeFieldPlaceholder')}
      value={value ? `${value.replace('T', ' ')}:00` : null}
      // Mantine's value is `yyyy-MM-dd HH:mm:ss`; the callers keep the native input's form.
      onChange={(next) => onChange(next ? next.slice(0, 16).replace(' ', 'T') : '')}
      onBlur={onBlur}
      maxDate={max?.slice(0, 10)}
      allowDeselect={false}
      autoComplete="off"
    />
  );
}

interface TimeFieldProps extends FieldProps {
  /** `HH:mm`, or '' while empty. */
  value: string;
  onChange: (value: string) => void;
}

/**
 * A time of day, 24-hour `HH:mm` in every language. A text box, so a screen reader reads it as
 * one value; what is typed is tidied to HH:mm on leaving the box (930 and 9.30 become 09:30).
 */
export function TimeField({ value, onChange, onBlur, ...field }: TimeFieldProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      {...field}
      value={value}
      placeholder={t('TimeFieldPlaceholder')}
      inputMode="numeric"
      autoComplete="off"
      maxLength={5}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={() => {
        const tidy = normaliseTime(value);
        if (tidy !== null && tidy !== value) onChange(tidy);
        onBlur?.();
      }}
    />
  );
}
