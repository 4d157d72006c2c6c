import type { CommandsMessages } from './en';

/** Swedish texts of device commands: DOUT, operating modes and their states: exactly the English keys (the type checks it). */
export const commandsSv: CommandsMessages = {
  InvalidOutput: 'Välj utgång 1, 2 eller 3.',
  DoutDurationInvalid: 'Tiden måste vara mer än 0 och högst 65000 sekunder.',
  DoutLabelTooLong: 'Etiketten får vara högst 20 tecken.',
  InvalidOperatingMode: 'Välj ett driftläge.',
  InvalidCommandType: 'Kommandot stöds inte.',
  DoutAwaitingAnswer: 'Enheten har ännu inte svarat på det förra utgångskommandot. Du kan skicka igen när den svarar eller efter 120 sekunder.',
  NoDeviceResponse: 'Inget svar från enheten inom 120 sekunder. Den kan ha dålig täckning; kommandot skickas när enheten har kontakt nästa gång.',
  ModeChangeFailed: 'Enheten kunde inte byta driftläge.',
  CommandFailed: 'Enheten kunde inte utföra kommandot.',
};
