/** English texts of device commands: DOUT, operating modes and their states (merged into the flat key space; see shared/i18n/index.ts). */
export const commandsEn = {
  InvalidOutput: 'Choose output 1, 2 or 3.',
  DoutDurationInvalid: 'The duration must be more than 0 and at most 65000 seconds.',
  DoutLabelTooLong: 'The label can be at most 20 characters.',
  InvalidOperatingMode: 'Choose an operating mode.',
  InvalidCommandType: 'This command is not supported.',
  DoutAwaitingAnswer: 'The unit has not answered the previous output command yet. You can send again when it answers or after 120 seconds.',
  NoDeviceResponse: 'No response from the unit within 120 seconds. It may have poor coverage; the command is sent when the unit is next in contact.',
  ModeChangeFailed: 'The unit could not change its operating mode.',
  CommandFailed: 'The unit could not carry out the command.',
} as const;

export type CommandsMessages = { readonly [K in keyof typeof commandsEn]: string };
