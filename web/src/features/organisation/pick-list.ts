/** Pure rules of the unit and user pickers: search over every shown text, select all that the search shows. */
export interface PickItem {
  id: string;
  label: string;
  /** A second line (an IMEI or plate, an e-mail). */
  detail?: string;
}

/** Items whose label or detail contains every word of the search, ignoring case. */
export function matchingItems<T extends PickItem>(items: readonly T[], search: string, locale: string): T[] {
  const words = search.toLocaleLowerCase(locale).split(/\s+/).filter(Boolean);
  if (!words.length) return [...items];
  return items.filter((item) => {
    const text = `${item.label} ${item.detail ?? ''}`.toLocaleLowerCase(locale);
    return words.every((w) => text.includes(w));
  });
}

/** 'Select all shown' toggles the shown items only: all of them on, unless all already are, then off. */
export function toggleShown(selected: ReadonlySet<string>, shown: readonly PickItem[]): Set<string> {
  const next = new Set(selected);
  const allOn = shown.length > 0 && shown.every((i) => next.has(i.id));
  for (const item of shown) {
    if (allOn) next.delete(item.id);
    else next.add(item.id);
  }
  return next;
}
