/**
 * Reading pixels of a screenshot, for what only the map's canvas shows (the base map's colours, a
 * marker): the PNG is decoded by the browser itself, in a page of its own with no policy to obey.
 */
import type { Browser } from 'playwright-core';

export type Rgb = [number, number, number];

export function hexRgb(hex: string): Rgb {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

async function inBlankPage<T, A>(browser: Browser, fn: (arg: A) => Promise<T>, arg: A): Promise<T> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    return await page.evaluate(fn as (arg: unknown) => Promise<T>, arg as unknown);
  } finally {
    await context.close();
  }
}

/** How many pixels of the PNG are within `tolerance` of `rgb` in every channel. */
export function countColour(browser: Browser, png: Buffer, rgb: Rgb, tolerance = 6): Promise<number> {
  return inBlankPage(
    browser,
    async ({ b64, rgb: [r, g, b], tolerance: tol }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${b64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      ctx.drawImage(image, 0, 0);
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs((data[i] ?? 0) - r) <= tol && Math.abs((data[i + 1] ?? 0) - g) <= tol && Math.abs((data[i + 2] ?? 0) - b) <= tol) count++;
      }
      return count;
    },
    { b64: png.toString('base64'), rgb, tolerance },
  );
}

/** The most frequent colour of the PNG, as #rrggbb. */
export function commonestColour(browser: Browser, png: Buffer): Promise<string> {
  return inBlankPage(
    browser,
    async (b64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${b64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      ctx.drawImage(image, 0, 0);
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const counts = new Map<number, number>();
      for (let i = 0; i < data.length; i += 4) {
        const key = ((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const [best = 0] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
      return `#${best.toString(16).padStart(6, '0')}`;
    },
    png.toString('base64'),
  );
}
