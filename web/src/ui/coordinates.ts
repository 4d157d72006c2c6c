/**
 * A position for people: latitude, longitude with five decimals (about a metre) and a decimal point
 * in every language. In Swedish and Norwegian the decimal comma inside a comma-separated pair
 * ("59,32930, 18,06860") cannot be read back; the point form is also what map services take when
 * it is copied into them.
 */
export function formatCoordinates(lat: number, lon: number): string {
  return `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
}
