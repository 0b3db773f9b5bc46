import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { downsampleToPlanes } from '../src/vision/colour-planes.js';
import { surfaceMask, type SurfaceMaskOptions } from '../src/vision/restyle/surface-mask.js';

/** The walls' options as the refresh passes them, at a band fitting a 160 × 120 grid. */
const WALL_OPTIONS: SurfaceMaskOptions = { band: 4, localLook: true, clusters: 1, threshold: 4, minPieceShare: 0.004, maxSpread: [0.4, 0.12, 0.03, 0.6], rivals: [0], edgeStep: 0.06, smoothIsSurface: true, closeAroundFixtures: true, closeNotches: true };
const [CEILING_ROWS, FLOOR_FROM] = [30, 90];
const [WIDTH, HEIGHT] = [160, 120];

/**
 * A flat wall (face 2) between a ceiling (face 1, rows above CEILING_ROWS) and a floor (face 0, rows from FLOOR_FROM),
 * each pixel's sRGB colour from `colour(x, y, face)`.
 */
function flatRoom(colour: (x: number, y: number, face: number) => [number, number, number]) {
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  const labels = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const face = y < CEILING_ROWS ? 1 : y >= FLOOR_FROM ? 0 : 2;
      labels[y * WIDTH + x] = face;
      data.set(colour(x, y, face).map((c) => Math.max(0, Math.min(255, Math.round(c)))), (y * WIDTH + x) * 3);
    }
  }
  return { planes: downsampleToPlanes({ data, width: WIDTH, height: HEIGHT, channels: 3 }, 1024), labels };
}

/** A repeatable noise in [-1, 1]. */
function noise(x: number, y: number): number {
  const s = Math.sin(x * 12.9898 + y * 78.233) * 43758.5453;
  return 2 * (s - Math.floor(s)) - 1;
}

describe('the walls surface mask', () => {
  it('paints up to the ceiling line a wall that turns cooler under it, though a floor of many tones looks as near', () => {
    // The floor: the wall's beige in tones far apart; the wall cools (bluer) over the 10 rows under the ceiling, the
    // shade of a corner. Judged by colour alone, those rows are as near the floor's wide look as the wall's tight one.
    const beige = [200, 190, 175];
    const room = flatRoom((x, y, face) => {
      if (face === 1) return [250, 250, 250];
      if (face === 0) return beige.map((c, k) => c + 40 * noise(x + 7 * k, y)) as [number, number, number];
      const cool = Math.max(0, 1 - (y - CEILING_ROWS) / 10);
      return [beige[0]! - 12 * cool, beige[1]! - 4 * cool, beige[2]! + 10 * cool];
    });
    const surface = surfaceMask({ planes: room.planes, labels: room.labels, faces: [2], forbidden: new Uint8Array(WIDTH * HEIGHT) }, WALL_OPTIONS);
    let underCeiling = 0;
    let painted = 0;
    for (let y = CEILING_ROWS; y < CEILING_ROWS + WALL_OPTIONS.band; y++) {
      for (let x = 4; x < WIDTH - 4; x++) {
        underCeiling++;
        painted += surface.mask[y * WIDTH + x]!;
      }
    }
    assert.ok(painted / underCeiling > 0.95, `${painted} of the ${underCeiling} wall cells under the ceiling painted`);
  });

  it('closes a patch of shade around a socket, and leaves the socket and a canvas inside its frame out', () => {
    // A soft vertical streak of shade (a corner's) with a dark socket in it, and a pale warm canvas (near enough the
    // paint to be no fixture on its own) ringed by a dark frame.
    const paint = [180, 180, 178];
    const CANVAS: [number, number, number] = [195, 180, 160];
    const socket = (x: number, y: number) => x >= 40 && x < 43 && y >= 60 && y < 63;
    const canvas = (x: number, y: number) => x >= 102 && x < 114 && y >= 56 && y < 68;
    const frame = (x: number, y: number) => x >= 100 && x < 116 && y >= 54 && y < 70 && !canvas(x, y);
    const room = flatRoom((x, y, face) => {
      if (face !== 2) return face === 1 ? [250, 250, 250] : [90, 60, 40];
      if (socket(x, y) || frame(x, y)) return [20, 20, 20];
      if (canvas(x, y)) return CANVAS;
      const shade = Math.exp(-0.9 * Math.exp(-((x - 41) ** 2) / 4 - ((y - 61) / 14) ** 8));
      return paint.map((c) => c * shade) as [number, number, number];
    });
    const surface = surfaceMask({ planes: room.planes, labels: room.labels, faces: [2], forbidden: new Uint8Array(WIDTH * HEIGHT) }, WALL_OPTIONS);
    const at = (x: number, y: number) => surface.mask[y * WIDTH + x]!;
    let shadeCells = 0;
    let shadePainted = 0;
    for (let y = 40; y < 80; y++) {
      for (const x of [40, 41, 42]) {
        if (Math.abs(y - 61) < 6) continue;
        shadeCells++;
        shadePainted += at(x, y);
      }
    }
    assert.ok(shadePainted / shadeCells > 0.95, `${shadePainted} of ${shadeCells} cells of the shade painted`);
    assert.equal(at(41, 61), 0, 'the socket is painted');
    assert.equal(at(107, 61), 0, 'the canvas is painted');
  });

  it('closes the teeth of shade the paint leaves above a skirting in what it paints, not in what the checks judge', () => {
    // A skirting (forbidden) along rows 84-89; above it, teeth of faint shade 3 cells wide every 7 cells, 5 rows deep,
    // joined along the row over the skirting, which runs to the photo's sides: no hole the paint encloses.
    const skirting = (y: number) => y >= 84 && y < FLOOR_FROM;
    const shaded = (x: number, y: number) => y === 83 || (y >= 78 && y < 83 && x % 7 < 3);
    const room = flatRoom((x, y, face) => {
      if (face !== 2) return face === 1 ? [250, 250, 250] : [90, 60, 40];
      const shade = shaded(x, y) ? 0.37 : 1;
      return [180 * shade, 180 * shade, 178 * shade];
    });
    const forbidden = new Uint8Array(WIDTH * HEIGHT);
    for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) if (skirting(y)) forbidden[y * WIDTH + x] = 1;
    const teeth = (options: SurfaceMaskOptions, which: 'mask' | 'smoothMask') => {
      const mask = surfaceMask({ planes: room.planes, labels: room.labels, faces: [2], forbidden }, options)[which];
      let cells = 0;
      let painted = 0;
      for (let y = 78; y < 83; y++) {
        for (let x = 8; x < WIDTH - 8; x++) {
          if (!shaded(x, y)) continue;
          cells++;
          painted += mask[y * WIDTH + x]!;
        }
      }
      return painted / cells;
    };
    assert.ok(teeth({ ...WALL_OPTIONS, closeNotches: false }, 'smoothMask') < 0.5, 'the teeth are closed without closeNotches: the test shows nothing');
    // Each tooth's darkest cell stands out surely (beyond 1.75 times the threshold) and stays out.
    const closed = teeth(WALL_OPTIONS, 'smoothMask');
    assert.ok(closed > 0.85, `${(100 * closed).toFixed(0)} % of the teeth painted`);
    // The checks still see the teeth: smoothed, a mask gone ragged would pass for a clean one.
    assert.ok(teeth(WALL_OPTIONS, 'mask') < 0.5, 'the judged mask lost its teeth');
  });
});
