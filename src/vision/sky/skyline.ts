import type { ColourPlanes } from '../colour-planes.js';

export interface SkylineOptions {
  /**
   * Colour step (largest channel, sRGB 0…1, central difference) from which a pixel is a strong edge: a roofline,
   * cornice, tree or facade. Default 0.035: the soft edges of clouds and the sky's own gradient stay well under it
   * at the working resolution, while the parapet of a white building against a white sky still crosses it.
   */
  edgeThreshold?: number;
  /**
   * Most rows (working pixels) of a dark line that the walk steps over: a wire or a twig. Default 6 (a 2-pixel branch at 45°, spread by the central difference). Thicker
   * structures stop the walk: stepping over branches let the walk through dark roof bands into white walls.
   */
  maxCrossing?: number;
  /** How much darker than the sky (brightest channel) a structure must get to be stepped over. Default 0.12. */
  crossingDarker?: number;
  /** Largest channel difference between the sky above and below a stepped-over structure. Default 0.03. */
  continuationTolerance?: number;
}

const DEFAULTS: Required<SkylineOptions> = {
  edgeThreshold: 0.035,
  maxCrossing: 6,
  crossingDarker: 0.12,
  continuationTolerance: 0.03,
};

/**
 * What lies above the skyline: in each column, the pixels reached from the top border going straight down through
 * `candidate` pixels without crossing a strong edge. Sky is what is seen above the first roofline, cornice, tree or
 * facade of its column; a white wall below a roofline matches a white sky in colour and smoothness, and a 2-D flood
 * fill finds a way into it through any gap in the line, but a column walk cannot go around the line.
 *
 * The walk steps over one kind of obstacle: a thin dark line (a wire, a twig) much darker than the sky, when the same
 * sky continues right beyond it (a gutter has a wall beyond it, which the continuation test refuses unless the wall
 * is the sky's exact colour). The line's own pixels are allowed too: they are mixtures that the matte unmixes. Sky seen through a bare crown is therefore not replaced (the walk stops at
 * the first branch): see replaceSky for what happens then. Returns 1 where a pixel may be sky.
 */
export function skylineLimit(
  planes: ColourPlanes,
  candidate: Uint8Array,
  options: SkylineOptions = {},
): Uint8Array {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  const edge = edgeStrength(planes);
  const open = (i: number) => candidate[i] === 1 && edge[i]! < settings.edgeThreshold;
  const allowed = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    let y = 0;
    let lastSky = -1;
    while (y < height) {
      const i = y * width + x;
      if (open(i)) {
        allowed[i] = 1;
        lastSky = i;
        y++;
        continue;
      }
      if (lastSky < 0) break;
      const beyond = crossingEnd(planes, open, x, y, lastSky, settings);
      if (beyond < 0) {
        // The central difference marks the last row of sky above a roof as an edge too; it is sky when it has the
        // sky's colour and what is below it is not sky-like at all. Above a wall of the sky's colour it stays out.
        const below = y + 1 < height ? i + width : -1;
        if (candidate[i] === 1 && (below < 0 || candidate[below] !== 1) && sameColour(planes, i, lastSky, settings.continuationTolerance)) {
          allowed[i] = 1;
        }
        break;
      }
      for (let k = y; k < beyond; k++) allowed[k * width + x] = 1;
      y = beyond;
    }
  }
  return allowed;
}

/** The row past a dark structure starting at row `y` of column `x` that may be stepped over, or −1. */
function crossingEnd(
  planes: ColourPlanes,
  open: (i: number) => boolean,
  x: number,
  y: number,
  lastSky: number,
  settings: Required<SkylineOptions>,
): number {
  const { width, height } = planes;
  let darkest = Infinity;
  for (let k = y; k < height && k - y <= settings.maxCrossing; k++) {
    const i = k * width + x;
    if (!open(i)) {
      darkest = Math.min(darkest, brightest(planes, i));
      continue;
    }
    const skyLevel = Math.min(brightest(planes, lastSky), brightest(planes, i));
    return sameColour(planes, i, lastSky, settings.continuationTolerance) && skyLevel - darkest >= settings.crossingDarker ? k : -1;
  }
  return -1;
}

function sameColour(planes: ColourPlanes, i: number, j: number, tolerance: number): boolean {
  return (
    Math.abs(planes.r[i]! - planes.r[j]!) <= tolerance &&
    Math.abs(planes.g[i]! - planes.g[j]!) <= tolerance &&
    Math.abs(planes.b[i]! - planes.b[j]!) <= tolerance
  );
}

function brightest(planes: ColourPlanes, i: number): number {
  return Math.max(planes.r[i]!, planes.g[i]!, planes.b[i]!);
}

/** Largest channel's central-difference step, horizontal or vertical, at each pixel. */
export function edgeStrength(planes: ColourPlanes): Float32Array {
  const { width, height } = planes;
  const edge = new Float32Array(width * height);
  for (const plane of [planes.r, planes.g, planes.b]) {
    for (let y = 0; y < height; y++) {
      const up = Math.max(0, y - 1) * width;
      const down = Math.min(height - 1, y + 1) * width;
      const row = y * width;
      for (let x = 0; x < width; x++) {
        const dx = (plane[row + Math.min(width - 1, x + 1)]! - plane[row + Math.max(0, x - 1)]!) / 2;
        const dy = (plane[down + x]! - plane[up + x]!) / 2;
        const step = Math.max(Math.abs(dx), Math.abs(dy));
        if (step > edge[row + x]!) edge[row + x] = step;
      }
    }
  }
  return edge;
}

/**
 * Removes runs of sky narrower than 2·radius + 1 columns: the walk goes down any light column that reaches the top
 * border, so a pale lamp post or the light strip between two windows of a facade cut by the frame would pass for sky.
 * A sky that narrow is a sliver no buyer misses.
 */
export function dropNarrowStrips(mask: Uint8Array, width: number, height: number, radius: number): void {
  const eroded = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let run = 0;
    for (let x = 0; x < width; x++) {
      run = mask[row + x] ? run + 1 : 0;
      if (run >= 2 * radius + 1) eroded[row + x - radius] = 1;
    }
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (!mask[row + x]) continue;
      let kept = false;
      for (let dx = -radius; dx <= radius && !kept; dx++) {
        const column = x + dx;
        kept = column >= 0 && column < width && eroded[row + column] === 1;
      }
      mask[row + x] = kept ? 1 : 0;
    }
  }
}

/** How clearly the sky ends where the skyline walk stopped: see judgeSkyline. */
export interface SkylineClarity {
  /** Columns whose sky ends above the frame's bottom rows. */
  columns: number;
  /** Median colour step (largest channel, sRGB 0…1) from the sky just above its lower end to what lies just below. */
  medianStep: number;
  /** Longest run of neighbouring columns whose step is weak, as a fraction of the width. */
  longestWeakRun: number;
}

/** Rows above and below a column's lowest sky pixel whose colours are compared. */
const STEP_ABOVE = 3;
const STEP_BELOW = 4;
/** A step under this is weak: no roofline, cornice or crown edge, only haze or more of the same sky. */
export const WEAK_SKYLINE_STEP = 0.12;

/**
 * What lies below the sky in each column, where the skyline walk stopped: a roofline is a clear step from the sky's
 * colour to something else. Two failures are measured. Where the step is small in most columns, the sky goes on
 * below the stop (seen through a bare crown, between wires): replacing only what is above would leave the old sky
 * under the new one in steps. Where it is weak along a long stretch, haze hides where the sky ends (a tower fading
 * into fog): the walk ran on into the building.
 */
export function judgeSkyline(planes: ColourPlanes, mask: Uint8Array): SkylineClarity {
  const { width, height } = planes;
  const steps: number[] = [];
  let run = 0;
  let longest = 0;
  for (let x = 0; x < width; x++) {
    let bottom = -1;
    while (bottom + 1 < height && mask[(bottom + 1) * width + x]) bottom++;
    if (bottom < 0 || bottom + STEP_BELOW >= height) {
      run = 0;
      continue;
    }
    const above = Math.max(0, bottom - STEP_ABOVE) * width + x;
    const below = (bottom + STEP_BELOW) * width + x;
    const step = Math.max(
      Math.abs(planes.r[above]! - planes.r[below]!),
      Math.abs(planes.g[above]! - planes.g[below]!),
      Math.abs(planes.b[above]! - planes.b[below]!),
    );
    steps.push(step);
    run = step < WEAK_SKYLINE_STEP ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  steps.sort((a, b) => a - b);
  return {
    columns: steps.length,
    medianStep: steps.length > 0 ? steps[steps.length >> 1]! : 1,
    longestWeakRun: longest / width,
  };
}
