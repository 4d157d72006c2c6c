/**
 * The Mantine theme of a brand: its primary colour as a ten-shade palette (shade 6 is the brand
 * colour itself), system fonts, visible keyboard focus.
 */
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
import type { Brand } from '../../../shared/brands';

function parseHex(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`Not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1] as string, 16), parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

function mix(hex: string, target: number, amount: number): string {
  return toHex(parseHex(hex).map((c) => c + (target - c) * amount));
}

/** Ten shades, light to dark, with the brand colour at index 6 (Mantine's default primary shade). */
export function paletteFrom(hex: string): MantineColorsTuple {
  const lighter = [0.92, 0.82, 0.68, 0.52, 0.36, 0.18].map((a) => mix(hex, 255, a));
  const darker = [0.15, 0.3, 0.45].map((a) => mix(hex, 0, a));
  return [...lighter, toHex(parseHex(hex)), ...darker] as unknown as MantineColorsTuple;
}

/** WCAG relative luminance and contrast ratio. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = parseHex(hex).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The theme of a brand; `closeLabel` names every dialog's close button for screen readers, in the page's language. */
export function brandTheme(brand: Brand, closeLabel: string): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    colors: { brand: paletteFrom(brand.primary) },
    defaultRadius: 'md',
    focusRing: 'auto',
    cursorType: 'pointer',
    // A user who asks the system for less motion gets dialogs, drawers and menus without their
    // transitions (WCAG 2.3.3); the maps already skip their camera animations for them.
    respectReducedMotion: true,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
    components: {
      // A modal's header is a <header>, which outside sectioning content is a second banner
      // landmark beside the page header (axe: landmark-no-duplicate-banner): make it a plain div.
      ModalHeader: { defaultProps: { component: 'div' } },
      // Mantine's close button is an icon alone (axe: button-name); a dialog may still name it itself.
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } },
    },
  });
}

/**
 * Mantine's dimmed grey (gray.6, 3.3:1) and error red (red.6, 3.3:1) are below WCAG AA's 4.5:1 on
 * white: use gray.7 and red.9 so secondary text and field errors stay readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': theme.colors.gray[7] ?? '#495057',
    '--mantine-color-error': theme.colors.red[9] ?? '#c92a2a',
  },
  dark: {},
});
