import type { ColourPlanes } from '../colour-planes.js';
import { dilateSquare, erodeSquare } from '../mask-morphology.js';

/**
 * Whether a window or door outline holds nothing but the wall around it: inside it (two cells in from its edge) the
 * brightness changes no more from cell to cell than in a ring around it on its own wall (`wall`: 1 on the cells of the
 * layout's face it lies on; the ring from 4 cells to 3 % of the working copy's width out), and its mean brightness
 * and colour are the ring's. An opening has something of its own — a view, a
 * pane's glare, a frame, a door's panels and gaps, the shade of a passage — while a glare or a bare stretch of wall
 * that the room network took for a window has none.
 *
 * Measured on the room networks' openings (those no line framed) in the 25 shared photos drawn by hand, at 1024 px
 * (docs/decisions/0022): 8 of 49 are this plain; 7 of those match no drawn opening (bare wall in empty_bedroom_02
 * (two), empty_room_02, empty_living_06 (two), furnished_living_cluttered_01, empty_studio_white_03), one is the
 * passage of the overexposed empty_studio_white_03, drawn as a door and as plain as its walls. Of the other 41, 17
 * match a drawn opening (IoU at least 0.3). Where the paint would surround such an opening, the refresh paints neither
 * around it (a patch of old paint) nor over it (it may be a door as white as the wall): services/refresh/refresh-photo.ts.
 */
export function looksLikeItsWall(planes: ColourPlanes, outline: Uint8Array, wall: Uint8Array): boolean {
  const { width, height } = planes;
  const inner = erodeSquare(outline, width, height, 2);
  const near = dilateSquare(outline, width, height, 3);
  const far = dilateSquare(outline, width, height, Math.max(4, Math.round(RING_SHARE * width)));
  const inside = new Moments();
  const ring = new Moments();
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      const i = y * width + x;
      const into = inner[i] ? inside : far[i] && !near[i] && wall[i] ? ring : undefined;
      if (!into) continue;
      const here = brightness(planes, i);
      into.add(Math.abs(brightness(planes, i + 1) - here) + Math.abs(brightness(planes, i + width) - here), here, chroma(planes, i));
    }
  }
  if (inside.count < MIN_CELLS || ring.count < MIN_CELLS) return false;
  const a = inside.means();
  const b = ring.means();
  return a.texture < b.texture && Math.abs(a.brightness - b.brightness) < MAX_BRIGHTNESS_STEP && Math.hypot(a.red - b.red, a.blue - b.blue) < MAX_COLOUR_STEP;
}

/** The ring's outer reach, as a share of the working copy's width. */
const RING_SHARE = 0.03;
/** Largest difference of mean log brightness between inside and ring (log units: 10 %). */
const MAX_BRIGHTNESS_STEP = 0.1;
/** Largest difference of mean log chromaticity (red/green, blue/green). */
const MAX_COLOUR_STEP = 0.02;
/** Fewer cells inside or in the ring and nothing is said. */
const MIN_CELLS = 20;

function brightness(planes: ColourPlanes, i: number): number {
  return Math.log((planes.r[i]! + planes.g[i]! + planes.b[i]!) * 85 + 1);
}

function chroma(planes: ColourPlanes, i: number): [number, number] {
  const g = planes.g[i]! * 255 + 1;
  return [Math.log((planes.r[i]! * 255 + 1) / g), Math.log((planes.b[i]! * 255 + 1) / g)];
}

class Moments {
  count = 0;
  private sums = [0, 0, 0, 0];
  add(texture: number, brightness: number, [red, blue]: [number, number]): void {
    this.count++;
    this.sums[0]! += texture;
    this.sums[1]! += brightness;
    this.sums[2]! += red;
    this.sums[3]! += blue;
  }
  means() {
    const [texture, brightness, red, blue] = this.sums.map((s) => s / this.count) as [number, number, number, number];
    return { texture, brightness, red, blue };
  }
}
