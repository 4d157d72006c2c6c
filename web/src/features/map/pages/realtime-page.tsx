// Being written (issue 4): the real-time map page.
export function RealtimePage() {
  return null;
}
