/**
 * Messages on the live channel `live/{accountId}/units/{imei}` (docs/api.md Live channel). The browser's
 * live controller parses each with `liveMessageSchema` and ignores what does not parse.
 */
import { z } from 'zod';
import { commandSchema } from './commands';
import { eventSchema } from './events';
import { unitStateSchema } from './tracking';

/** A new latest state of a unit: the same shape as `state` in GET /realtime/units, plus the IMEI. */
export const livePositionMessageSchema = unitStateSchema.extend({ type: z.literal('position'), imei: z.string() });
/** A command was created or changed status (pending, unanswered, acknowledged, failed, cancelled). */
export const liveCommandMessageSchema = z.object({ type: z.literal('command'), imei: z.string(), command: commandSchema });

/** The event engine raised an event (time in UTC; the browser shows it in its own zone). */
export const liveEventMessageSchema = z.object({ type: z.literal('event'), imei: z.string(), event: eventSchema });

/**
 * The caller's access to a unit changed (functions/administration): sent on the user's own topic
 * only. `granted: false` means the unit is gone from what the user may see; the map drops it at once.
 */
export const liveAccessMessageSchema = z.object({ type: z.literal('access'), imei: z.string(), granted: z.boolean() });

export const liveMessageSchema = z.discriminatedUnion('type', [livePositionMessageSchema, liveCommandMessageSchema, liveEventMessageSchema, liveAccessMessageSchema]);
export type LiveAccessMessage = z.infer<typeof liveAccessMessageSchema>;
export type LiveEventMessage = z.infer<typeof liveEventMessageSchema>;
export type LivePositionMessage = z.infer<typeof livePositionMessageSchema>;
export type LiveCommandMessage = z.infer<typeof liveCommandMessageSchema>;
export type LiveMessage = z.infer<typeof liveMessageSchema>;
