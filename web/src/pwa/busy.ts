/**
 * What keeps the update prompt from reloading the page: unsent changes in the outbox, an open
 * form. Each holder says so under its own name; the prompt reads whether any holds.
 */
type Listener = () => void;

const holders = new Set<string>();
const listeners = new Set<Listener>();

export function setBusy(holder: string, busy: boolean): void {
  const had = holders.has(holder);
  if (busy === had) return;
  if (busy) holders.add(holder);
  else holders.delete(holder);
  for (const listener of listeners) listener();
}

export function isBusy(): boolean {
  return holders.size > 0;
}

export function subscribeBusy(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
