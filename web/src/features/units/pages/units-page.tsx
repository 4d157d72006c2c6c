// Being written (issue 4): the units list page.
export function UnitsPage() {
  return null;
}
