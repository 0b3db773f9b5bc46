import type { ColourPlanes } from '../colour-planes.js';
import { connectedComponents } from '../connected-components.js';
import { erodeSquare } from '../mask-morphology.js';

export interface SkylineOptions {
  /**
   * Colour step (largest channel, sRGB 0…1, central difference) from which a pixel is a strong edge: a roofline,
   * cornice, tree or facade. Default 0.035: the soft edges of clouds and the sky's own gradient stay well under it
   * at the working resolution, while the parapet of a white building against a white sky still crosses it.
   */
  edgeThreshold?: number;
  /** Largest channel difference between the last sky pixel of a column and the edge pixel below it that still counts as sky. Default 0.03. */
  continuationTolerance?: number;
  /**
   * Colour step (largest channel, mean of the 3 pixels from a pixel on against the 3 before it, down a column or
   * along a row) from which extendSkyBeside stops at a soft edge: a roofline in haze, whose step of 0.05–0.08 is
   * spread over two or three pixels, never reaches `edgeThreshold` in a central difference. Default 0.045: the sky's
   * own gradient measures 3 × its step per pixel (0.003–0.01 on overcast skies at the working resolution), the hazy
   * rooflines of the shared exteriors 0.06 and more. The walk from the top does not use it (its stops, and with them
   * the classifier's and judgeSkyline's measurements, stay where they were).
   */
  softStep?: number;
}

const DEFAULTS: Required<SkylineOptions> = {
  edgeThreshold: 0.035,
  continuationTolerance: 0.03,
  softStep: 0.045,
};

/**
 * What lies above the skyline: in each column, the pixels reached from the top border going straight down through
 * `candidate` pixels without crossing a strong edge. Sky is what is seen above the first roofline, cornice, tree or
 * facade of its column; a white wall below a roofline matches a white sky in colour and smoothness, and a 2-D flood
 * fill finds a way into it through any gap in the line, but a column walk cannot go around the line.
 *
 * The walk steps over nothing. It used to step over a thin dark line (a wire, a twig) when the sky's colour went on
 * right beyond it; but a gutter or a parapet over a wall of the sky's exact colour is the same thin dark line with
 * the same colour beyond, and a wall was painted whenever the straight-line barriers missed its parapet. What lies
 * beyond a line is taken for sky only where it joins the open sky around the line's end: see extendSkyBeside; or,
 * where the sky goes on below the walk in most columns, beyond wires across the whole sky: see walkAcrossWires. Sky
 * seen through a bare crown is therefore not replaced (the walk stops at the first branch): see replaceSky for what
 * happens then. Returns 1 where a pixel may be sky.
 */
export function skylineLimit(
  planes: ColourPlanes,
  candidate: Uint8Array,
  options: SkylineOptions = {},
): Uint8Array {
  const settings = { ...DEFAULTS, ...options };
  const walk = columnWalker(planes, candidate, settings);
  const allowed = new Uint8Array(planes.width * planes.height);
  for (let x = 0; x < planes.width; x++) walk(allowed, x);
  return allowed;
}

/** Walks down column `x` from the top border, marking in `allowed` what may be sky. */
function columnWalker(
  planes: ColourPlanes,
  candidate: Uint8Array,
  settings: Required<SkylineOptions>,
): (allowed: Uint8Array, x: number) => void {
  const { width, height } = planes;
  const edge = edgeStrength(planes);
  const open = (i: number) => candidate[i] === 1 && edge[i]! < settings.edgeThreshold;
  return (allowed, x) => {
    let lastSky = -1;
    for (let y = 0; y < height; y++) {
      const i = y * width + x;
      if (open(i)) {
        allowed[i] = 1;
        lastSky = i;
        continue;
      }
      // The central difference marks the last row of sky above a roof as an edge too; it is sky when it has the
      // sky's colour and what is below it is not sky-like at all. Above a wall of the sky's colour it stays out.
      const below = y + 1 < height ? i + width : -1;
      if (lastSky >= 0 && candidate[i] === 1 && (below < 0 || candidate[below] !== 1) && sameColour(planes, i, lastSky, settings.continuationTolerance)) {
        allowed[i] = 1;
      }
      return;
    }
  };
}

/**
 * Working pixels around a sideways step that must all be open (no strong edge, sky-like): a gap narrower than
 * 2 · 3 + 1 pixels in a roofline is no way through. The column walk itself goes down gaps of 3 or 4 columns (where
 * a roof meets the slope of its neighbour, say) before dropNarrowStrips takes those runs out again; spreading
 * sideways from such a run would carry the leak across the whole wall below.
 */
const BESIDE_CLEARANCE = 3;

/**
 * Sky seen beside and below what the walk from the top border stopped at: under a cornice that overhangs a tower or
 * a building that overhangs the street, on the far side of a twig. Such sky hangs from the sky walked from the top,
 * only not straight down. From the walked sky it grows sideways along rows and down columns, never up (sky hangs
 * from the top of the frame), through pixels that are open with all their neighbours within BESIDE_CLEARANCE
 * (sky-like in `candidate`, no strong edge, no soft step), then takes the band of open pixels of that width along
 * what it reached; a piece that does not join the walked sky beside it seamlessly is taken back (see
 * dropSeamedAdditions). A roofline is a strong edge all along, so this reaches no wall that the walk would not reach
 * through the same gap, and it spreads through no gap narrower than the clearance. Changes `allowed` in place.
 */
export function extendSkyBeside(planes: ColourPlanes, candidate: Uint8Array, allowed: Uint8Array, options: SkylineOptions = {}): void {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  const edge = edgeStrength(planes);
  const down = softSteps(planes, 'down');
  const across = softSteps(planes, 'across');
  const open = new Uint8Array(width * height);
  for (let i = 0; i < open.length; i++) {
    const soft = Math.max(down[i]!, across[i]!) < settings.softStep;
    open[i] = candidate[i] === 1 && edge[i]! < settings.edgeThreshold && soft ? 1 : 0;
  }
  const clear = erodeSquare(open, width, height, BESIDE_CLEARANCE);
  const walked = allowed.slice();
  const reached = new Uint8Array(width * height);
  const stack: number[] = [];
  for (let i = 0; i < allowed.length; i++) {
    if (allowed[i] && clear[i]) {
      reached[i] = 1;
      stack.push(i);
    }
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i + width < reached.length ? i + width : -1]) {
      if (j >= 0 && clear[j] && !reached[j]) {
        reached[j] = 1;
        stack.push(j);
      }
    }
  }
  // The band along what was reached, through open pixels only, as wide as the clearance kept it away from edges.
  let frontier: number[] = [];
  for (let i = 0; i < reached.length; i++) if (reached[i] && !allowed[i]) frontier.push(i);
  let added = 0;
  for (const i of frontier) {
    allowed[i] = 1;
    added++;
  }
  for (let step = 0; step < BESIDE_CLEARANCE && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= allowed.length || allowed[j] || !open[j]) continue;
        allowed[j] = 1;
        added++;
        next.push(j);
      }
    }
    frontier = next;
  }
  if (added > 0) dropSeamedAdditions(planes, walked, allowed);
}

/** Pixels on each side of a joint whose mean colours dropSeamedAdditions compares. */
const JOINT_SPAN = 3;
/**
 * Largest mean colour step (any channel, sRGB 0…1) along the joint between added sky and the sky beside it: 3
 * levels of 8 bits. The same sky on both sides of the joint measures under 0.006 on the shared exteriors (mean over
 * the joint, where noise averages out); a smooth wall beside the sky without a visible edge still differs by a few
 * levels all along it.
 */
const JOINT_TOLERANCE = 0.012;

/**
 * Takes back each piece of added sky (4-connected) that does not join the walked sky beside it seamlessly: the mean,
 * over every row where the two meet side by side, of the step between JOINT_SPAN added pixels and as many walked
 * ones must stay under JOINT_TOLERANCE in every channel. A piece that meets the walked sky nowhere side by side is
 * taken back too.
 */
function dropSeamedAdditions(planes: ColourPlanes, walked: Uint8Array, allowed: Uint8Array): void {
  const { width, height } = planes;
  const channels = [planes.r, planes.g, planes.b];
  const added = new Uint8Array(allowed.length);
  for (let i = 0; i < allowed.length; i++) added[i] = allowed[i] && !walked[i] ? 1 : 0;
  for (const piece of connectedComponents(added, width, height)) {
    const step = [0, 0, 0];
    let joints = 0;
    for (const i of piece.pixels) {
      const x = i % width;
      for (const direction of [-1, 1]) {
        let whole = true;
        for (let k = 0; k < JOINT_SPAN && whole; k++) {
          const inside = x - direction * k;
          const outside = x + direction * (k + 1);
          whole = inside >= 0 && inside < width && outside >= 0 && outside < width;
          whole &&= allowed[i - direction * k] === 1 && walked[i + direction * (k + 1)] === 1;
        }
        if (!whole) continue;
        joints++;
        for (let c = 0; c < 3; c++) {
          for (let k = 0; k < JOINT_SPAN; k++) step[c]! += (channels[c]![i - direction * k]! - channels[c]![i + direction * (k + 1)]!) / JOINT_SPAN;
        }
      }
    }
    const seamless = joints > 0 && step.every((sum) => Math.abs(sum / joints) <= JOINT_TOLERANCE);
    if (seamless) continue;
    for (const i of piece.pixels) allowed[i] = 0;
  }
}

/**
 * Most rows down a column that a line the walk steps over may take (the pixels between the last sky above it and the
 * first of WIRE_LANDING open pixels below): the overhead wires of grey_street_crosswalk_haze_05 take 1–3 at the
 * working resolution, its slanting signal arm 5–8; its street sign takes 14, a storey of windows more.
 */
const WIRE_MAX_BAND = 10;
/**
 * Open pixels in a row down a column below a line before the walk lands there: in a bare crown's lattice of twigs
 * the sky between two twigs down a column is 1–4 pixels, and the walk landing on such a gap could go on no further
 * (the colour above the next line is read from WIRE_SKIP_ABOVE + JOINT_SPAN rows of sky).
 */
const WIRE_LANDING = 3;
/**
 * Rows of the sky above a line left out of its colour: the walk goes into the faint core of a wire thinner than a
 * working pixel (its central difference is about 0 there) and stops at its lower flank, so the last rows above the
 * band are the wire's edge. Reading the sky right above it, the piece between the wires at columns 329–334 of
 * grey_street_crosswalk_haze_05 measured a step of 0.018; 2 rows higher, 0.011.
 */
const WIRE_SKIP_ABOVE = 2;
/**
 * Largest mean colour step (any channel, sRGB 0…1), over a piece's columns, between JOINT_SPAN pixels just below the
 * line and as many just above it (WIRE_SKIP_ABOVE left out): the pieces of the same sky kept between and below the
 * wires and the signal arm of grey_street_crosswalk_haze_05 measure 0.011 at most (a 5-column sliver beside its tower
 * 0.020, left out); a wall 6 levels of 8 bits off the sky, 0.024. A wall of the sky's own colour is told from the
 * sky by WIRE_WRAP_ROWS, not by colour.
 */
const WIRE_JOINT_TOLERANCE = 0.018;
/**
 * Rows of a piece beyond a line that may have sky beside them across a thin line (within WIRE_MAX_BAND, past pixels
 * that are not open only): none. A wire spans the sky from one side to the other, so beside the sky beyond it lies
 * what lies beside the sky above it (a facade, a tower) or more of the same sky, touching it where the walk passed
 * the wire: 0 rows on every piece kept over grey_street_crosswalk_haze_05. The wall under a parapet, of the sky's
 * own white, has the sky beside it across the trims of its corners all the way down (100 rows in the test's).
 */
const WIRE_WRAP_ROWS = 0;
/**
 * Lines stepped over one below another down a column: grey_street_crosswalk_haze_05 needs 2 (the upper wire, with the
 * lower one where the walk did not pass it, then the signal arm).
 */
const WIRE_MAX_LINES = 4;
/**
 * Largest difference (any channel, sRGB 0…1) between a pixel and the sky just above the line for the pixel to join
 * the sky beyond the line where it grows from where the walk landed (see growBeyondLine): the sky under the street
 * sign of grey_street_crosswalk_haze_05, reached only past the end of the sign, is within 0.017 of the sky above the
 * signal arm; its pale stone facades are 0.07 and more off (see VEIL_GAP_TOLERANCE in sky-segmentation).
 */
const WIRE_SKY_TOLERANCE = 0.03;

/** The sky walked from the top with what lies beyond thin lines across it (see walkAcrossWires). */
export interface WalkAcrossWires {
  /** 1 where a pixel may be sky. */
  mask: Uint8Array;
  /** 1 on the lines stepped over, down the columns where the walk stepped over them. */
  lines: Uint8Array;
}

/**
 * The walk from the top border (see skylineLimit), stepping over thin lines across the sky: overhead wires, a signal
 * arm. In each column the walk goes on below its end when a line of at most WIRE_MAX_BAND rows separates it from
 * WIRE_LANDING open pixels, and walks down from there as before; what it walks narrower than dropNarrowStrips keeps
 * is dropped (a gap in a parapet), and each 4-connected piece of the rest grows sideways and down through open sky
 * of the colour above the line (see growBeyondLine: the sky under a street sign hangs from the sky beside it). A
 * piece is kept only when the sky just below the line has the colour of the sky just above it (WIRE_JOINT_TOLERANCE)
 * and no sky lies beside it across a thin line (WIRE_WRAP_ROWS: the wall under a parapet, of the sky's own white, is
 * the same thin line with the same colour beyond it, but the sky goes on down around its corners). Up to
 * WIRE_MAX_LINES lines one below another. The lines themselves stay out of the mask: the matte gives their mixed
 * edge pixels their share of sky, as it does a twig's.
 */
export function walkAcrossWires(planes: ColourPlanes, candidate: Uint8Array, walked: Uint8Array, options: SkylineOptions = {}): WalkAcrossWires {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  const edge = edgeStrength(planes);
  const open = (i: number) => candidate[i] === 1 && edge[i]! < settings.edgeThreshold;
  const allowed = walked.slice();
  const lines = new Uint8Array(width * height);
  // The row where the walk ends in each column (−1: it never started there), the first row of the stretch of sky it
  // ends in (the colour above a line is read only inside it), and whether it may go on.
  const end = new Int32Array(width).fill(-1);
  for (let x = 0; x < width; x++) while (end[x]! + 1 < height && walked[(end[x]! + 1) * width + x]) end[x]!++;
  const start = new Int32Array(width);
  const stuck = new Uint8Array(width);
  const channels = [planes.r, planes.g, planes.b];
  for (let line = 0; line < WIRE_MAX_LINES; line++) {
    const landed = new Uint8Array(width * height);
    const landing = new Int32Array(width).fill(-1);
    for (let x = 0; x < width; x++) {
      const last = end[x]!;
      if (stuck[x] || last - WIRE_SKIP_ABOVE - JOINT_SPAN + 1 < start[x]!) continue;
      let land = -1;
      for (let y = last + 2; y <= last + 1 + WIRE_MAX_BAND && y + WIRE_LANDING <= height && land < 0; y++) {
        let clear = true;
        for (let k = 0; k < WIRE_LANDING && clear; k++) clear = open((y + k) * width + x) && !allowed[(y + k) * width + x];
        if (clear) land = y;
      }
      if (land < 0) {
        stuck[x] = 1;
        continue;
      }
      landing[x] = land;
      for (let y = land; y < height && open(y * width + x) && !allowed[y * width + x]; y++) landed[y * width + x] = 1;
    }
    // A walk down through a gap narrower than that in what it landed on (a parapet) is no way into what is below.
    dropNarrowStrips(landed, width, height, NARROW_WALK_RADIUS);
    const taken = new Uint8Array(width * height);
    const kept: number[][] = [];
    for (const piece of connectedComponents(landed, width, height)) {
      const columns = new Set<number>();
      for (const i of piece.pixels) columns.add(i % width);
      const above = [0, 0, 0];
      const below = [0, 0, 0];
      for (const x of columns) {
        const top = end[x]! - WIRE_SKIP_ABOVE - JOINT_SPAN + 1;
        for (let c = 0; c < 3; c++) {
          for (let k = 0; k < JOINT_SPAN; k++) {
            above[c]! += channels[c]![(top + k) * width + x]! / (JOINT_SPAN * columns.size);
            below[c]! += channels[c]![(landing[x]! + k) * width + x]! / (JOINT_SPAN * columns.size);
          }
        }
      }
      const seeds = piece.pixels.filter((i) => !taken[i]);
      // Grown into by a piece before it: judged with that one.
      if (seeds.length === 0) continue;
      const pixels = growBeyondLine(seeds, above, channels, allowed, taken, open, width, height);
      const sameSky = above.every((value, c) => Math.abs(below[c]! - value) <= WIRE_JOINT_TOLERANCE);
      const wrapped = wrappedRows(pixels, allowed, open, width);
      const keep = sameSky && wrapped <= WIRE_WRAP_ROWS;
      if (!keep) {
        for (const i of pixels) taken[i] = 0;
        continue;
      }
      kept.push(pixels);
      for (const x of columns) for (let y = end[x]! + 1; y < landing[x]!; y++) lines[y * width + x] = 1;
    }
    if (kept.length === 0) break;
    const touched = new Set<number>();
    for (const pixels of kept) {
      for (const i of pixels) {
        allowed[i] = 1;
        touched.add(i % width);
      }
    }
    // A column that landed nowhere kept stays where it is; each column touched ends at the lowest sky it now has, in
    // the stretch of sky that holds it.
    for (let x = 0; x < width; x++) if (landing[x]! >= 0 && !touched.has(x)) stuck[x] = 1;
    for (const x of touched) {
      let y = height - 1;
      while (!allowed[y * width + x]) y--;
      end[x] = y;
      while (y > 0 && allowed[(y - 1) * width + x]) y--;
      start[x] = y;
      stuck[x] = 0;
    }
  }
  return { mask: allowed, lines };
}

/**
 * Working pixels around a step of the growth beyond a line that must all be open and of the sky's colour: as in
 * extendSkyBeside, but 2 where that has 3, as the sky under the street sign of grey_street_crosswalk_haze_05 hangs
 * from the sky beside it through the 6 columns left between the sign and the building (with 3, that photo is still
 * declined); a gap of 4 open columns (a parapet's 6-pixel gap, whose ends blur into it) is still no way through.
 */
const WIRE_CLEARANCE = 2;

/**
 * A piece of sky the walk landed on beyond a line, grown sideways and down (never up: sky hangs from the top) through
 * pixels that are open with all their neighbours within WIRE_CLEARANCE, within WIRE_SKY_TOLERANCE of `sky` in every
 * channel, not sky yet and not taken by another piece; then the band of such pixels, as wide as the clearance, along
 * what it reached. Marks what it takes in `taken`; returns the piece's pixels with what it grew into.
 */
function growBeyondLine(
  seeds: number[],
  sky: number[],
  channels: Float32Array[],
  allowed: Uint8Array,
  taken: Uint8Array,
  open: (i: number) => boolean,
  width: number,
  height: number,
): number[] {
  const pixels = seeds.slice();
  for (const i of seeds) taken[i] = 1;
  const skyLike = (i: number) => open(i) && channels.every((plane, c) => Math.abs(plane[i]! - sky[c]!) <= WIRE_SKY_TOLERANCE);
  const clear = (i: number) => {
    const x = i % width;
    const y = (i - x) / width;
    if (x < WIRE_CLEARANCE || y < WIRE_CLEARANCE || x + WIRE_CLEARANCE >= width || y + WIRE_CLEARANCE >= height) return false;
    for (let dy = -WIRE_CLEARANCE; dy <= WIRE_CLEARANCE; dy++) {
      for (let dx = -WIRE_CLEARANCE; dx <= WIRE_CLEARANCE; dx++) if (!skyLike(i + dy * width + dx)) return false;
    }
    return true;
  };
  const free = (j: number) => !taken[j] && !allowed[j];
  const reached = seeds.filter(clear);
  for (let k = 0; k < reached.length; k++) {
    const i = reached[k]!;
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i + width < width * height ? i + width : -1]) {
      if (j < 0 || !free(j) || !clear(j)) continue;
      taken[j] = 1;
      pixels.push(j);
      reached.push(j);
    }
  }
  let frontier = reached;
  for (let step = 0; step < WIRE_CLEARANCE && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= width * height || !free(j) || !skyLike(j)) continue;
        taken[j] = 1;
        pixels.push(j);
        next.push(j);
      }
    }
    frontier = next;
  }
  return pixels;
}

/** The radius of dropNarrowStrips as sky-segmentation runs it: pieces narrower than 2 · 2 + 1 columns are dropped. */
const NARROW_WALK_RADIUS = 2;

/**
 * Fills, in each column of `mask`, the runs of `lines` with sky right above and right below them: the extent of the
 * sky with the wires stepped over counted in it, for judging where it ends (see judgeSkyline).
 */
export function bridgeLines(mask: Uint8Array, lines: Uint8Array, width: number, height: number): Uint8Array {
  const bridged = mask.slice();
  for (let x = 0; x < width; x++) {
    for (let y = 1; y < height; y++) {
      if (!lines[y * width + x] || lines[(y - 1) * width + x]) continue;
      let low = y;
      while (low + 1 < height && lines[(low + 1) * width + x]) low++;
      if (mask[(y - 1) * width + x] && low + 1 < height && mask[(low + 1) * width + x]) {
        for (let k = y; k <= low; k++) bridged[k * width + x] = 1;
      }
    }
  }
  return bridged;
}

/**
 * Rows of a piece that have sky (`allowed`), or the piece itself, beside one of its runs in the row across a thin
 * line: within WIRE_MAX_BAND + 1 pixels of either end of the run, past pixels that are not open only (a run touching
 * the sky beside it, or with open pixels between, is not wrapped there).
 */
function wrappedRows(pixels: number[], allowed: Uint8Array, open: (i: number) => boolean, width: number): number {
  const inPiece = new Set(pixels);
  const rows = new Map<number, number[]>();
  for (const i of pixels) {
    const y = Math.floor(i / width);
    if (!rows.has(y)) rows.set(y, []);
    rows.get(y)!.push(i % width);
  }
  // Sky, or the piece itself, beyond a thin line that is not open: the piece reaches around the line's end.
  const acrossLine = (y: number, x: number, direction: number): boolean => {
    for (let k = 1; k <= WIRE_MAX_BAND + 1; k++) {
      const column = x + direction * k;
      if (column < 0 || column >= width) return false;
      const i = y * width + column;
      if (allowed[i] || inPiece.has(i)) return k > 1;
      if (open(i)) return false;
    }
    return false;
  };
  let wrapped = 0;
  for (const [y, columns] of rows) {
    columns.sort((a, b) => a - b);
    const leftEnds = columns.filter((x, k) => k === 0 || columns[k - 1] !== x - 1);
    const rightEnds = columns.filter((x, k) => k === columns.length - 1 || columns[k + 1] !== x + 1);
    if (leftEnds.some((x) => acrossLine(y, x, -1)) || rightEnds.some((x) => acrossLine(y, x, 1))) wrapped++;
  }
  return wrapped;
}

/** Mean colour of rows [y0, y1) of column x (the pixel at y0 when the range is empty). */
function columnMean(planes: ColourPlanes, x: number, y0: number, y1: number): [number, number, number] {
  const rows = Math.max(1, y1 - y0);
  return [planes.r, planes.g, planes.b].map((plane) => {
    let sum = 0;
    for (let y = y0; y < y0 + rows; y++) sum += plane[y * planes.width + x]!;
    return sum / rows;
  }) as [number, number, number];
}

function sameColour(planes: ColourPlanes, i: number, j: number, tolerance: number): boolean {
  return (
    Math.abs(planes.r[i]! - planes.r[j]!) <= tolerance &&
    Math.abs(planes.g[i]! - planes.g[j]!) <= tolerance &&
    Math.abs(planes.b[i]! - planes.b[j]!) <= tolerance
  );
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

/** Rows (or columns) on each side whose mean colours softSteps compares. */
const SOFT_STEP_SPAN = 3;

/**
 * The colour step (largest channel) between the mean of SOFT_STEP_SPAN pixels from each pixel on (down a column, or
 * rightward along a row) and the mean of as many before it: a soft edge, spread over a few pixels, counts whole.
 */
export function softSteps(planes: ColourPlanes, direction: 'down' | 'across'): Float32Array {
  const { width, height } = planes;
  const steps = new Float32Array(width * height);
  const [stride, length, lines, lineStride] = direction === 'down' ? [width, height, width, 1] : [1, width, height, width];
  for (const plane of [planes.r, planes.g, planes.b]) {
    for (let line = 0; line < lines; line++) {
      const base = line * lineStride;
      for (let k = 0; k < length; k++) {
        let before = 0;
        let after = 0;
        for (let d = 1; d <= SOFT_STEP_SPAN; d++) {
          before += plane[base + Math.max(0, k - d) * stride]!;
          after += plane[base + Math.min(length - 1, k + d - 1) * stride]!;
        }
        const step = Math.abs(after - before) / SOFT_STEP_SPAN;
        const i = base + k * stride;
        if (step > steps[i]!) steps[i] = step;
      }
    }
  }
  return steps;
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

/**
 * Soft step (see softSteps, down a column) from which a hazy skyline is an edge: 6 levels of 8 bits between the
 * means of 3 pixels. The fog over grey_fog_glass_tower_10 changes by 1 level in 10 rows, its tower's fogged top
 * edge measures 0.03–0.05 (the tower fades into the fog over 4–5 pixels but does not fade out).
 */
const HAZY_EDGE_STEP = 0.025;
/**
 * Largest difference (any channel) between the sky just above a hazy edge and the top of its column: the one-sky
 * tolerance of sky-segmentation. A tower that fades into the fog with no edge at its top is walked into down to an
 * edge inside it (a band of windows), where what lies above is the tower's colour by then, not the sky's.
 */
const HAZY_EDGE_SKY_TOLERANCE = 0.06;
/**
 * Neighbouring columns whose hazy edges lie at most this many rows apart belong to one edge: a slant of up to 76°
 * (the fogged tower's top corner falls 3 rows a column).
 */
const HAZY_EDGE_SLOPE = 4;
/** Shortest run of columns, as a fraction of the width, along which one hazy edge must go to count as a skyline. */
const HAZY_EDGE_MIN_RUN = 0.02;

/**
 * Where haze hides the skyline (see judgeSkyline), the sky is what lies above the first consistent edge: in each
 * column, the first soft step of at least HAZY_EDGE_STEP down the sky hanging from the top border of `mask`, taken
 * at its strongest row, when the same edge goes on (HAZY_EDGE_SLOPE) across HAZY_EDGE_MIN_RUN of the width. A
 * roofline is such an edge at the row where the walk stopped, so cutting there cuts nothing; a tower fading into fog
 * is cut at its soft top instead of walked into. A fog that fades with no edge at all has none. Returns, per column,
 * the row from which everything is to be cut (−1: no such edge).
 */
export function hazyEdgeRows(planes: ColourPlanes, mask: Uint8Array): Int32Array {
  const { width, height } = planes;
  const down = softSteps(planes, 'down');
  const edgeRow = new Int32Array(width).fill(-1);
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height && mask[y * width + x]; y++) {
      if (down[y * width + x]! < HAZY_EDGE_STEP) continue;
      let peak = y;
      // Down to the strongest step, which for sky ending where the walk stopped is the first row below it.
      while (peak + 1 < height && down[(peak + 1) * width + x]! > down[peak * width + x]! && mask[peak * width + x]) peak++;
      // The first edge counts only with the sky's colour above it.
      const above = columnMean(planes, x, Math.max(0, y - SOFT_STEP_SPAN), y);
      const top = columnMean(planes, x, 0, Math.min(y, SOFT_STEP_SPAN));
      if (above.every((value, c) => Math.abs(value - top[c]!) <= HAZY_EDGE_SKY_TOLERANCE)) edgeRow[x] = peak;
      break;
    }
  }
  const cutRow = new Int32Array(width).fill(-1);
  const minRun = Math.max(2, Math.round(HAZY_EDGE_MIN_RUN * width));
  let start = 0;
  for (let x = 1; x <= width; x++) {
    const linked = x < width && edgeRow[x]! >= 0 && edgeRow[x - 1]! >= 0 && Math.abs(edgeRow[x]! - edgeRow[x - 1]!) <= HAZY_EDGE_SLOPE;
    if (linked) continue;
    if (edgeRow[start]! >= 0 && x - start >= minRun) cutRow.set(edgeRow.subarray(start, x), start);
    start = x;
  }
  return cutRow;
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
 * into fog): the walk ran on into the building. Columns flagged in `edgeColumns` end at a soft edge found by
 * hazyEdgeRows: they count as clear for the weak run.
 */
export function judgeSkyline(planes: ColourPlanes, mask: Uint8Array, edgeColumns?: ArrayLike<number>): SkylineClarity {
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
    run = step < WEAK_SKYLINE_STEP && !edgeColumns?.[x] ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  steps.sort((a, b) => a - b);
  return {
    columns: steps.length,
    medianStep: steps.length > 0 ? steps[steps.length >> 1]! : 1,
    longestWeakRun: longest / width,
  };
}
