/**
 * Message keys of device commands (spec sections 4, 5, 8 and 9). The server answers with these keys and
 * the browser translates them (the `commands` text module holds each of them in every language).
 */
export const commandMessageKeys = {
  /** DOUT output is 1, 2 or 3. */
  InvalidOutput: 'InvalidOutput',
  /** DOUT duration greater than 0 and at most 65000 seconds (spec section 5). */
  DoutDurationInvalid: 'DoutDurationInvalid',
  /** DOUT label at most 20 characters (spec section 5). */
  DoutLabelTooLong: 'DoutLabelTooLong',
  InvalidOperatingMode: 'InvalidOperatingMode',
  InvalidCommandType: 'InvalidCommandType',
  /** 409: a DOUT command may be sent again only after an answer or 120 seconds (spec section 4). */
  DoutAwaitingAnswer: 'DoutAwaitingAnswer',
  /** The poor-coverage message: no answer within 120 seconds (spec sections 4 and 8). */
  NoDeviceResponse: 'NoDeviceResponse',
  /** The tracker answered that it could not apply an operating mode (spec section 8). */
  ModeChangeFailed: 'ModeChangeFailed',
  /** The tracker answered that it could not apply another command. */
  CommandFailed: 'CommandFailed',
} as const;

export type CommandMessageKey = (typeof commandMessageKeys)[keyof typeof commandMessageKeys];
