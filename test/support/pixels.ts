/**
 * Reading pixels of a screenshot, for what only the map's canvas shows (the base map's colours, a
 * marker): the PNG is decoded by the browser itself, in a page of its own with no policy to obey.
 */
import type { Browser } from 'playwright-core';

export type Rgb = [number, number, number];

export function hexRgb(hex: string): Rgb {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

interface PixelQuery {
  b64: string;
  /** Count the pixels within `tolerance` of this colour; without it, find the commonest colour. */
  rgb?: Rgb;
  tolerance: number;
}

/**
 * Decodes the PNG in a blank page of the browser and answers the query there, so the pixels never
 * cross into Node. One function (page.evaluate ships it as source, so it cannot call helpers).
 */
async function readPixels(browser: Browser, query: PixelQuery): Promise<number | string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    return await page.evaluate(async ({ b64, rgb, tolerance }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${b64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      ctx.drawImage(image, 0, 0);
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      if (rgb) {
        const [r, g, b] = rgb;
        let count = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (Math.abs((data[i] ?? 0) - r) <= tolerance && Math.abs((data[i + 1] ?? 0) - g) <= tolerance && Math.abs((data[i + 2] ?? 0) - b) <= tolerance) count++;
        }
        return count;
      }
      const counts = new Map<number, number>();
      for (let i = 0; i < data.length; i += 4) {
        const key = ((data[i] ?? 0) << 16) | ((data[i + 1] ?? 0) << 8) | (data[i + 2] ?? 0);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const [best = 0] = [...counts].sort((x, y) => y[1] - x[1])[0] ?? [];
      return `#${best.toString(16).padStart(6, '0')}`;
    }, query);
  } finally {
    await context.close();
  }
}

/** How many pixels of the PNG are within `tolerance` of `rgb` in every channel. */
export async function countColour(browser: Browser, png: Buffer, rgb: Rgb, tolerance = 6): Promise<number> {
  return Number(await readPixels(browser, { b64: png.toString('base64'), rgb, tolerance }));
}

/** The most frequent colour of the PNG, as #rrggbb. */
export async function commonestColour(browser: Browser, png: Buffer): Promise<string> {
  return String(await readPixels(browser, { b64: png.toString('base64'), tolerance: 0 }));
}
