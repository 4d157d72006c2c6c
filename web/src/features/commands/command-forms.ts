/**
 * The DOUT and operating-mode forms, validated in the browser with the shared request schema's own
 * field rules (spec section 5: duration above 0 and at most 65000 seconds, label at most 20 characters),
 * so the browser and the server answer with the same message keys.
 */
import { z } from 'zod';
import { commandRequestSchema, operatingModeParamsSchema, type CommandRequest } from '../../../../shared/schemas/commands';

const [doutRequestSchema] = commandRequestSchema.options;

/** An empty number input means "no duration": the output keeps its new state until the next command. */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const doutFormSchema = z.object({
  on: doutRequestSchema.shape.on,
  durationSeconds: z.preprocess(emptyToUndefined, doutRequestSchema.shape.durationSeconds),
  label: doutRequestSchema.shape.label,
});
export type DoutFormInput = z.input<typeof doutFormSchema>;
export type DoutFormValues = z.output<typeof doutFormSchema>;

export function doutRequest(output: number, values: DoutFormValues): CommandRequest {
  return {
    type: 'dout',
    output,
    on: values.on,
    ...(values.durationSeconds !== undefined ? { durationSeconds: values.durationSeconds } : {}),
    // Always sent: the label field shows the saved one, and an emptied field clears it.
    label: values.label ?? '',
  };
}

export const modeFormSchema = z.object({ mode: z.preprocess(emptyToUndefined, operatingModeParamsSchema.shape.mode) });
export type ModeFormInput = z.input<typeof modeFormSchema>;
export type ModeFormValues = z.output<typeof modeFormSchema>;

export function modeRequest(values: ModeFormValues): CommandRequest {
  return { type: 'operatingMode', mode: values.mode };
}
