/**
 * Which registration page to show (spec section 2): the new-design wizard when the root element
 * flags the new design, otherwise the older classic form.
 *
 * The flag is the root element's `data-new-design` ("true"/"1" or "false"/"0"). No index.html sets
 * it today (neither the embedded runtime's plain page nor the per-brand pages), so an absent flag
 * means the new design: that is what new customers should meet. `?design=classic` (or `?design=new`)
 * overrides both for one visit, so the classic form can be reached and tested anywhere.
 */
export type RegistrationDesign = 'new' | 'classic';

function parseFlag(value: string | null | undefined): boolean | null {
  const v = value?.trim().toLowerCase();
  if (v === undefined) return null;
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

export function resolveDesign(rootFlag: string | null | undefined, search: string): RegistrationDesign {
  const asked = new URLSearchParams(search).get('design')?.trim().toLowerCase();
  if (asked === 'classic') return 'classic';
  if (asked === 'new') return 'new';
  return parseFlag(rootFlag) === false ? 'classic' : 'new';
}

/** Reads the flag from the page's root element (`<div id="root" data-new-design="...">`). */
export function readRootDesignFlag(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.getElementById('root')?.dataset['newDesign'];
}
