/**
 * The seam between the embedded runtime's demo history fill (infra/local/demo-history.ts) and the
 * handler that tells the demo account's users about it (functions/dev/get-demo-history.ts): the
 * runtime reports which accounts' units are being filled and how far it got; nothing reported
 * means nothing is filling.
 */
export interface DemoFill {
  /** The accounts whose units get history. */
  accountIds: readonly string[];
  /** Share of the positions handled, 0-1. */
  done: number;
}

let current: DemoFill | null = null;

/** The fill's progress; null once it is over (or stopped). */
export function reportDemoFill(fill: DemoFill | null): void {
  current = fill;
}

/** How far the fill of the account's units is (0-1), or null when none is filling. */
export function demoFillOf(accountId: string): number | null {
  return current?.accountIds.includes(accountId) ? current.done : null;
}
