import type { CommandsMessages } from './en';

/** Norwegian texts of device commands: DOUT, operating modes and their states: exactly the English keys (the type checks it). */
export const commandsNo: CommandsMessages = {
  InvalidOutput: 'Velg utgang 1, 2 eller 3.',
  DoutDurationInvalid: 'Varigheten må være mer enn 0 og høyst 65000 sekunder.',
  DoutLabelTooLong: 'Etiketten kan være høyst 20 tegn.',
  InvalidOperatingMode: 'Velg en driftsmodus.',
  InvalidCommandType: 'Kommandoen støttes ikke.',
  DoutAwaitingAnswer: 'Enheten har ennå ikke svart på forrige utgangskommando. Du kan sende igjen når den svarer eller etter 120 sekunder.',
  NoDeviceResponse: 'Ingen respons fra enheten innen 120 sekunder. Den kan ha dårlig dekning; kommandoen sendes når enheten har kontakt neste gang.',
  ModeChangeFailed: 'Enheten kunne ikke endre driftsmodus.',
  CommandFailed: 'Enheten kunne ikke utføre kommandoen.',
};
