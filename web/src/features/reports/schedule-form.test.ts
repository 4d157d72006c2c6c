import { describe, expect, it } from 'vitest';
import type { ReportSchedule } from './api/reports-api';
import { scheduleBody, scheduleFormSchema, scheduleFormValues } from './schedule-form';

const valid = { kind: 'summary', imeis: [], format: 'pdf', every: 'month', recipients: ['Boss@Example.com'], lang: 'sv', skipEmpty: true } as const;

describe('schedule form', () => {
  it('takes a valid schedule, e-mails tidied', () => {
    const parsed = scheduleFormSchema.parse(valid);
    expect(parsed.recipients).toEqual(['boss@example.com']);
  });
  it('names the problem with a message key', () => {
    const issues = (input: unknown) => scheduleFormSchema.safeParse(input).error?.issues.map((i) => i.message) ?? [];
    expect(issues({ ...valid, recipients: [] })).toEqual(['ScheduleRecipientsRequired']);
    expect(issues({ ...valid, recipients: ['not-an-address'] })).toEqual(['EnterValidEmail']);
    expect(issues({ ...valid, recipients: Array.from({ length: 21 }, (_, i) => `u${i}@example.com`) })).toEqual(['TooManyScheduleRecipients']);
  });
  it('sends the units comma-separated, and none for all units', () => {
    expect(scheduleBody(scheduleFormSchema.parse(valid))).not.toHaveProperty('imeis');
    expect(scheduleBody(scheduleFormSchema.parse({ ...valid, imeis: ['1', '2'] })).imeis).toBe('1,2');
  });
  it('reads a saved schedule back, all units as none picked', () => {
    const saved: ReportSchedule = { id: 's1', kind: 'tripLog', format: 'csv', every: 'week', recipients: ['a@b.se'], lang: 'en', skipEmpty: false, timeZone: 'Europe/Stockholm', nextRunAt: '2026-12-07T06:00:00+01:00' };
    expect(scheduleFormValues({ ...saved, imeis: ['3'] }).imeis).toEqual(['3']);
    expect(scheduleFormValues(saved).imeis).toEqual([]);
  });
});
