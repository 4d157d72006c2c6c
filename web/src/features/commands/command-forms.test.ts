import { describe, expect, it } from 'vitest';
import { commandRequestSchema } from '../../../../shared/schemas/commands';
import { doutFormSchema, doutRequest, modeFormSchema, modeRequest } from './command-forms';

function errorsOf(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('DOUT form', () => {
  it('accepts an empty duration as none and a duration from 1 to 65000 seconds', () => {
    expect(doutFormSchema.parse({ on: true, durationSeconds: '', label: '' })).toEqual({ on: true, durationSeconds: undefined, label: '' });
    expect(doutFormSchema.parse({ on: false, durationSeconds: 1, label: '' }).durationSeconds).toBe(1);
    expect(doutFormSchema.parse({ on: true, durationSeconds: 65_000, label: '' }).durationSeconds).toBe(65_000);
  });

  it.each([0, -5, 65_001, 1.5, 'abc'])('refuses the duration %s with DoutDurationInvalid', (durationSeconds) => {
    expect(errorsOf(doutFormSchema.safeParse({ on: true, durationSeconds, label: '' }))).toEqual({ durationSeconds: 'DoutDurationInvalid' });
  });

  it('takes a label of 20 characters, trimmed, and refuses 21 with DoutLabelTooLong', () => {
    expect(doutFormSchema.parse({ on: true, durationSeconds: '', label: `  ${'x'.repeat(20)}  ` }).label).toBe('x'.repeat(20));
    expect(errorsOf(doutFormSchema.safeParse({ on: true, durationSeconds: '', label: 'y'.repeat(21) }))).toEqual({ label: 'DoutLabelTooLong' });
  });

  it('builds a request the server schema accepts, the label always included so an empty one clears it', () => {
    const withDuration = doutRequest(1, doutFormSchema.parse({ on: true, durationSeconds: 60, label: 'Heater' }));
    expect(withDuration).toEqual({ type: 'dout', output: 1, on: true, durationSeconds: 60, label: 'Heater' });
    expect(commandRequestSchema.parse(withDuration)).toEqual(withDuration);
    const cleared = doutRequest(3, doutFormSchema.parse({ on: false, durationSeconds: '', label: '' }));
    expect(cleared).toEqual({ type: 'dout', output: 3, on: false, label: '' });
    expect(commandRequestSchema.parse(cleared)).toEqual(cleared);
  });
});

describe('operating-mode form', () => {
  it('requires one of the nine modes', () => {
    expect(errorsOf(modeFormSchema.safeParse({ mode: '' }))).toEqual({ mode: 'InvalidOperatingMode' });
    expect(errorsOf(modeFormSchema.safeParse({ mode: null }))).toEqual({ mode: 'InvalidOperatingMode' });
    expect(errorsOf(modeFormSchema.safeParse({ mode: 'fixed2h' }))).toEqual({ mode: 'InvalidOperatingMode' });
    const request = modeRequest(modeFormSchema.parse({ mode: 'realtime1min' }));
    expect(request).toEqual({ type: 'operatingMode', mode: 'realtime1min' });
    expect(commandRequestSchema.parse(request)).toEqual(request);
  });
});
