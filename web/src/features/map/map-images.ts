/**
 * Images the unit layers draw, made on a canvas at the device's resolution as MapLibre asks for
 * them, so that no sprite or glyph server is needed with any base map (the offline one has
 * neither): the white symbol of each unit with its status dot, the moving unit's heading arrow, the count of a
 * cluster and, at street zoom, the unit's name with a halo, both in the browser's own font.
 *
 * The resolver belongs to the map, not to its style: a new base map asks for the images again.
 */
import type { MapInstance } from 'react-map-gl/maplibre';
import { markerSymbols, type MarkerSymbol } from '../../../../shared/schemas/tracking';
import { STATUS_COLORS, unitStatuses, type UnitStatus } from '../../../../shared/unit-status';
import { symbolPaths } from './marker-icons';

/** `unit-glyph:<symbol>:<status>` */
export const GLYPH_PREFIX = 'unit-glyph:';
/** `cluster-count:<abbreviated count>` */
export const COUNT_PREFIX = 'cluster-count:';
/** `unit-label:<name>` */
export const LABEL_PREFIX = 'unit-label:';
export const HEADING_ARROW = 'unit-heading-arrow';
/** CSS pixels of a unit's symbol inside its circle. */
export const GLYPH_SIZE = 16;
/** A unit's circle: radius and white rim (unit-layer-style.ts draws it). */
export const UNIT_RADIUS = 13;
export const UNIT_RIM = 2;
/** The unit's image: its symbol in the middle, the status dot over the circle's upper right edge. */
export const UNIT_IMAGE_SIZE = 36;
const DOT = { x: 10, y: -10, radius: 5, rim: 2 };
/** A cluster's circle radius by its number of units (at least 0, 25, 250), and its white rim. */
export const CLUSTER_RADII = [17, 21, 26] as const;
export const CLUSTER_STEPS = [25, 250] as const;
export const CLUSTER_RIM = 3;
/** Names longer than this are cut with an ellipsis on the map. */
export const LABEL_MAX_CHARS = 24;
const LABEL_FONT = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const LABEL_HEIGHT = 18;

const pixelRatio = () => Math.min(3, Math.max(1, Math.ceil(globalThis.devicePixelRatio || 1)));

let scratch: CanvasRenderingContext2D | null = null;

function context(): CanvasRenderingContext2D {
  scratch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!scratch) throw new Error('no 2D canvas');
  return scratch;
}

/**
 * Draws on one CPU-backed canvas: images are read back at once, and reading a GPU canvas back costs
 * a round trip to the GPU per image (the map may ask for hundreds of cluster counts).
 */
function draw(width: number, height: number, paint: (ctx: CanvasRenderingContext2D) => void) {
  const ratio = pixelRatio();
  const ctx = context();
  // Setting the size clears the canvas and resets its state.
  ctx.canvas.width = Math.ceil(width * ratio);
  ctx.canvas.height = Math.ceil(height * ratio);
  ctx.scale(ratio, ratio);
  paint(ctx);
  return { image: ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height), pixelRatio: ratio };
}

function disc(ctx: CanvasRenderingContext2D, x: number, y: number, radius: number, fill: string) {
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, Math.PI * 2);
  ctx.fillStyle = fill;
  ctx.fill();
}

/**
 * The symbol in white, and the status dot: filled, or hollow for offline so that it differs by more
 * than its colour. A moving unit has none: its heading arrow, in the same green, says it.
 */
function unitImage(symbol: MarkerSymbol, status: UnitStatus) {
  const paths = symbolPaths(symbol).map((d) => new Path2D(d));
  const centre = UNIT_IMAGE_SIZE / 2;
  return draw(UNIT_IMAGE_SIZE, UNIT_IMAGE_SIZE, (ctx) => {
    ctx.save();
    ctx.translate(centre - GLYPH_SIZE / 2, centre - GLYPH_SIZE / 2);
    ctx.scale(GLYPH_SIZE / 24, GLYPH_SIZE / 24);
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2.2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    for (const path of paths) ctx.stroke(path);
    ctx.restore();
    if (status === 'moving') return;
    const [x, y] = [centre + DOT.x, centre + DOT.y];
    disc(ctx, x, y, DOT.radius + DOT.rim, '#ffffff');
    disc(ctx, x, y, DOT.radius, STATUS_COLORS[status]);
    if (status === 'offline') disc(ctx, x, y, DOT.radius - 2, '#ffffff');
  });
}

/** The heading arrow's outline in a 14 × 12 box, pointing up (north before rotation); also drawn in the list (status-dot.tsx). */
export const ARROW_PATH = 'M7 1 L13 11 L7 8.5 L1 11 Z';

/** The moving unit's arrow, in the moving status's green with a white rim to read on any base map. */
function arrowImage() {
  const path = new Path2D(ARROW_PATH);
  return draw(14, 12, (ctx) => {
    ctx.lineJoin = 'round';
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke(path);
    ctx.fillStyle = STATUS_COLORS.moving;
    ctx.fill(path);
  });
}

/** The radius of a cluster's circle for its abbreviated count ("12", "250", "1.2k"). */
export function clusterRadius(label: string): number {
  const count = /[a-z]/i.test(label) ? Infinity : Number.parseInt(label, 10);
  const [small, medium, large] = CLUSTER_RADII;
  if (!(count >= CLUSTER_STEPS[0])) return small;
  return count < CLUSTER_STEPS[1] ? medium : large;
}

/**
 * The count, on a transparent square as large as the cluster's circle: the image is also what
 * MapLibre's collision test sees, so unit names keep clear of the whole circle, not only its digits.
 */
function countImage(label: string) {
  const font = '700 13px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  const size = 2 * (clusterRadius(label) + CLUSTER_RIM);
  return draw(size, size, (ctx) => {
    ctx.font = font;
    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(label, size / 2, size / 2 + 0.5);
  });
}

/** The name as the map shows it: at most LABEL_MAX_CHARS characters. */
export function labelText(name: string): string {
  const chars = [...name.trim()];
  return chars.length > LABEL_MAX_CHARS ? `${chars.slice(0, LABEL_MAX_CHARS - 1).join('').trimEnd()}…` : chars.join('');
}

/** Dark text with a white halo, readable on streets, satellite imagery and the offline map alike. */
function labelImage(name: string) {
  const text = labelText(name);
  const ctx = context();
  ctx.font = LABEL_FONT;
  const width = Math.ceil(ctx.measureText(text).width) + 8;
  return draw(width, LABEL_HEIGHT, (c) => {
    c.font = LABEL_FONT;
    c.textAlign = 'center';
    c.textBaseline = 'middle';
    c.lineJoin = 'round';
    c.lineWidth = 3.5;
    c.strokeStyle = 'rgba(255, 255, 255, 0.95)';
    c.strokeText(text, width / 2, LABEL_HEIGHT / 2);
    c.fillStyle = '#1a1b1e';
    c.fillText(text, width / 2, LABEL_HEIGHT / 2);
  });
}

const isSymbol = (value: string): value is MarkerSymbol => (markerSymbols as readonly string[]).includes(value);
const isStatus = (value: string): value is UnitStatus => (unitStatuses as readonly string[]).includes(value);

/** The image for one of the unit layers' ids, or null for an id that is not theirs. */
function imageFor(id: string): ReturnType<typeof draw> | null {
  if (id === HEADING_ARROW) return arrowImage();
  if (id.startsWith(COUNT_PREFIX)) return countImage(id.slice(COUNT_PREFIX.length));
  if (id.startsWith(LABEL_PREFIX)) return labelImage(id.slice(LABEL_PREFIX.length));
  if (id.startsWith(GLYPH_PREFIX)) {
    const [symbol = '', status = ''] = id.slice(GLYPH_PREFIX.length).split(':');
    return isSymbol(symbol) && isStatus(status) ? unitImage(symbol, status) : null;
  }
  return null;
}

/** Lets the map draw the unit images as it needs them, with whatever base map. Returns the undo. */
export function registerUnitImages(map: MapInstance): () => void {
  map.setMissingStyleImageResolver((id) => {
    if (map.hasImage(id)) return;
    const drawn = imageFor(id);
    if (drawn) map.addImage(id, drawn.image, { pixelRatio: drawn.pixelRatio });
  });
  return () => {
    map.setMissingStyleImageResolver(null);
  };
}
