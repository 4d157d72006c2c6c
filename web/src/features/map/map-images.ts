/**
 * Images the unit layers draw, made on a canvas at the device's resolution so that no sprite
 * server is needed: the white symbol on each unit's coloured circle, the heading arrow, and the
 * count of a cluster (drawn on demand as MapLibre asks for it, in the browser's own font, so the
 * counts need no glyph server whatever base map is in use).
 */
import type { MapInstance } from 'react-map-gl/maplibre';
import { markerSymbols, type MarkerSymbol } from '../../../../shared/schemas/tracking';
import { symbolPaths } from './marker-icons';

export const GLYPH_PREFIX = 'unit-glyph:';
export const COUNT_PREFIX = 'cluster-count:';
export const HEADING_ARROW = 'unit-heading-arrow';
/** CSS pixels of a unit's symbol inside its circle. */
export const GLYPH_SIZE = 16;

const pixelRatio = () => Math.min(3, Math.max(1, Math.ceil(globalThis.devicePixelRatio || 1)));

let scratch: CanvasRenderingContext2D | null = null;

/**
 * Draws on one CPU-backed canvas: images are read back at once, and reading a GPU canvas back costs
 * a round trip to the GPU per image (the map may ask for hundreds of cluster counts).
 */
function draw(width: number, height: number, paint: (ctx: CanvasRenderingContext2D) => void) {
  const ratio = pixelRatio();
  scratch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const ctx = scratch;
  if (!ctx) throw new Error('no 2D canvas');
  // Setting the size clears the canvas and resets its state.
  ctx.canvas.width = Math.ceil(width * ratio);
  ctx.canvas.height = Math.ceil(height * ratio);
  ctx.scale(ratio, ratio);
  paint(ctx);
  return { image: ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height), pixelRatio: ratio };
}

function glyphImage(symbol: MarkerSymbol) {
  const paths = symbolPaths(symbol).map((d) => new Path2D(d));
  return draw(GLYPH_SIZE, GLYPH_SIZE, (ctx) => {
    ctx.scale(GLYPH_SIZE / 24, GLYPH_SIZE / 24);
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const path of paths) ctx.stroke(path);
  });
}

/** An arrow pointing up (north before rotation), dark with a white rim to read on any base map. */
function arrowImage() {
  return draw(14, 12, (ctx) => {
    ctx.beginPath();
    ctx.moveTo(7, 1);
    ctx.lineTo(13, 11);
    ctx.lineTo(7, 8.5);
    ctx.lineTo(1, 11);
    ctx.closePath();
    ctx.lineJoin = 'round';
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    ctx.fillStyle = '#212529';
    ctx.fill();
  });
}

function countImage(label: string) {
  const font = '700 13px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  // Roughly the label's width; digits of this font are at most 8 px wide.
  const width = label.length * 8 + 4;
  return draw(width, 18, (ctx) => {
    ctx.font = font;
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, width / 2, 9.5);
  });
}

/** Adds the unit images to the map; cluster counts are drawn as the map asks for them. Returns the undo. */
export function registerUnitImages(map: MapInstance): () => void {
  for (const symbol of markerSymbols) {
    const id = `${GLYPH_PREFIX}${symbol}`;
    if (!map.hasImage(id)) {
      const { image, pixelRatio } = glyphImage(symbol);
      map.addImage(id, image, { pixelRatio });
    }
  }
  if (!map.hasImage(HEADING_ARROW)) {
    const { image, pixelRatio } = arrowImage();
    map.addImage(HEADING_ARROW, image, { pixelRatio });
  }
  map.setMissingStyleImageResolver((id) => {
    if (!id.startsWith(COUNT_PREFIX) || map.hasImage(id)) return;
    const { image, pixelRatio } = countImage(id.slice(COUNT_PREFIX.length));
    map.addImage(id, image, { pixelRatio });
  });
  return () => {
    map.setMissingStyleImageResolver(null);
  };
}
