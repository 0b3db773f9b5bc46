import { sampleBilinear, type ColourPlanes } from '../colour-planes.js';

/** A straight edge found in the image, in working-resolution pixel coordinates. */
export interface LineSegment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  length: number;
  /** Colour difference (RGB distance, 0…√3) between strips on either side: high on a roof line, near 0 on a wire. */
  sideContrast: number;
}

export interface StraightEdgeOptions {
  /** Colour gradient magnitude (Di Zenzo, a unit step in one channel gives 1) of an edge pixel. Default 0.03. */
  edgeThreshold?: number;
  /** Shortest segment kept, as a fraction of the longer image side. Default 0.07. */
  minLengthFraction?: number;
  /** Longest run without edge pixels inside one segment, in pixels. Default 3. */
  maxGap?: number;
  /** Side contrast below which a segment is a thin line on one background (wire, mullion), not a boundary. Default 0.05. */
  minSideContrast?: number;
  /** Most Hough peaks examined. Default 120. */
  maxPeaks?: number;
}

const DEFAULTS: Required<StraightEdgeOptions> = {
  edgeThreshold: 0.03,
  minLengthFraction: 0.07,
  maxGap: 3,
  minSideContrast: 0.05,
  maxPeaks: 120,
};

const ANGLE_BINS = 180;
/** Each edge pixel votes only for lines within this many degrees of its own orientation: fewer false peaks, less work. */
const VOTE_SPREAD_DEG = 2;
/** An edge pixel supports a line when its orientation is within this many degrees of it. */
const ORIENTATION_TOLERANCE_DEG = 8;
const SIDE_OFFSET_PX = 3;

/**
 * Long straight boundaries — roof lines, eaves, building outlines, a flat horizon — by an orientation-constrained
 * Hough transform on thinned colour edges, each peak walked along the image and cut into gap-free segments.
 * Only segments with different colours on their two sides are returned, so power lines and window bars that cross
 * a sky are not mistaken for its border.
 */
export function detectStraightEdges(planes: ColourPlanes, options: StraightEdgeOptions = {}): LineSegment[] {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  const minLength = settings.minLengthFraction * Math.max(width, height);
  const { magnitude, angle } = colourStructureGradient(planes);
  const edgeAngle = thinnedEdges(magnitude, angle, width, height, settings.edgeThreshold);

  const diagonal = Math.ceil(Math.hypot(width, height));
  const rhoBins = 2 * diagonal + 1;
  const votes = new Int32Array(ANGLE_BINS * rhoBins);
  const cosines = new Float64Array(ANGLE_BINS);
  const sines = new Float64Array(ANGLE_BINS);
  for (let a = 0; a < ANGLE_BINS; a++) {
    cosines[a] = Math.cos((a * Math.PI) / ANGLE_BINS);
    sines[a] = Math.sin((a * Math.PI) / ANGLE_BINS);
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const theta = edgeAngle[y * width + x]!;
      if (theta < 0) continue;
      const centre = Math.round(theta);
      for (let d = -VOTE_SPREAD_DEG; d <= VOTE_SPREAD_DEG; d++) {
        const a = (centre + d + ANGLE_BINS) % ANGLE_BINS;
        const rho = Math.round(x * cosines[a]! + y * sines[a]!) + diagonal;
        votes[a * rhoBins + rho]! += 1;
      }
    }
  }

  const segments: LineSegment[] = [];
  for (const peak of houghPeaks(votes, rhoBins, minLength * 0.6, settings.maxPeaks)) {
    const normalAngle = (peak.angleBin * Math.PI) / ANGLE_BINS;
    const rho = peak.rhoBin - diagonal;
    for (const run of walkLine(edgeAngle, width, height, normalAngle, rho, peak.angleBin, settings.maxGap)) {
      if (run.length < minLength) continue;
      const sideContrast = contrastAcross(planes, run, normalAngle);
      if (sideContrast < settings.minSideContrast) continue;
      segments.push({ ...run, sideContrast });
      // Its edge pixels are spent: a slightly tilted copy of the same edge, a peak of its own in the accumulator,
      // must not come back as a second barrier a pixel or two into the sky.
      consumeSupport(edgeAngle, width, height, run, peak.angleBin);
    }
  }
  return segments;
}

/** Draws segments one pixel wide, 8-connected, so that a 4-connected flood fill cannot cross them. */
export function rasterizeSegments(segments: readonly LineSegment[], width: number, height: number): Uint8Array {
  const raster = new Uint8Array(width * height);
  for (const segment of segments) {
    const steps = Math.ceil(Math.max(Math.abs(segment.x1 - segment.x0), Math.abs(segment.y1 - segment.y0)));
    for (let s = 0; s <= steps; s++) {
      const t = steps === 0 ? 0 : s / steps;
      const x = Math.round(segment.x0 + t * (segment.x1 - segment.x0));
      const y = Math.round(segment.y0 + t * (segment.y1 - segment.y0));
      if (x >= 0 && x < width && y >= 0 && y < height) raster[y * width + x] = 1;
    }
  }
  return raster;
}

/** Di Zenzo's colour gradient: the direction of strongest change over all three channels together. */
function colourStructureGradient(planes: ColourPlanes): { magnitude: Float32Array; angle: Float32Array } {
  const { width, height } = planes;
  const xx = new Float32Array(width * height);
  const yy = new Float32Array(width * height);
  const xy = new Float32Array(width * height);
  for (const plane of [planes.r, planes.g, planes.b]) {
    for (let y = 0; y < height; y++) {
      const up = Math.max(0, y - 1) * width;
      const row = y * width;
      const down = Math.min(height - 1, y + 1) * width;
      for (let x = 0; x < width; x++) {
        const left = Math.max(0, x - 1);
        const right = Math.min(width - 1, x + 1);
        // Sobel, scaled so that a unit step gives 1.
        const rightColumn = plane[up + right]! + 2 * plane[row + right]! + plane[down + right]!;
        const leftColumn = plane[up + left]! + 2 * plane[row + left]! + plane[down + left]!;
        const bottomRow = plane[down + left]! + 2 * plane[down + x]! + plane[down + right]!;
        const topRow = plane[up + left]! + 2 * plane[up + x]! + plane[up + right]!;
        const gx = (rightColumn - leftColumn) / 4;
        const gy = (bottomRow - topRow) / 4;
        xx[row + x]! += gx * gx;
        yy[row + x]! += gy * gy;
        xy[row + x]! += gx * gy;
      }
    }
  }
  const magnitude = new Float32Array(width * height);
  const angle = new Float32Array(width * height);
  for (let i = 0; i < magnitude.length; i++) {
    const difference = xx[i]! - yy[i]!;
    const largestEigenvalue = (xx[i]! + yy[i]! + Math.sqrt(difference * difference + 4 * xy[i]! * xy[i]!)) / 2;
    magnitude[i] = Math.sqrt(largestEigenvalue);
    // Normal direction in [0, π): lines are undirected.
    let normal = 0.5 * Math.atan2(2 * xy[i]!, difference);
    if (normal < 0) normal += Math.PI;
    angle[i] = normal;
  }
  return { magnitude, angle };
}

/** Non-maximum suppression across the edge; returns each surviving pixel's normal angle in degrees, −1 elsewhere. */
function thinnedEdges(magnitude: Float32Array, angle: Float32Array, width: number, height: number, threshold: number): Float32Array {
  const result = new Float32Array(width * height).fill(-1);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const m = magnitude[i]!;
      if (m < threshold) continue;
      const dx = Math.round(Math.cos(angle[i]!));
      const dy = Math.round(Math.sin(angle[i]!));
      if (m < magnitude[i + dy * width + dx]! || m < magnitude[i - dy * width - dx]!) continue;
      result[i] = ((angle[i]! * 180) / Math.PI) % ANGLE_BINS;
    }
  }
  return result;
}

interface Peak {
  angleBin: number;
  rhoBin: number;
}

function houghPeaks(votes: Int32Array, rhoBins: number, minVotes: number, maxPeaks: number): Peak[] {
  const candidates: number[] = [];
  for (let i = 0; i < votes.length; i++) if (votes[i]! >= minVotes) candidates.push(i);
  candidates.sort((a, b) => votes[b]! - votes[a]!);
  const peaks: Peak[] = [];
  for (const index of candidates) {
    const peak = { angleBin: Math.floor(index / rhoBins), rhoBin: index % rhoBins };
    // Neighbouring cells of a strong line are its own blur, not other lines.
    const near = peaks.some((p) => angularDistance(p.angleBin, peak.angleBin) <= 3 && Math.abs(p.rhoBin - peak.rhoBin) <= 4);
    if (near) continue;
    peaks.push(peak);
    if (peaks.length >= maxPeaks) break;
  }
  return peaks;
}

function angularDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % ANGLE_BINS;
  return Math.min(d, ANGLE_BINS - d);
}

type Run = Omit<LineSegment, 'sideContrast'>;

/** Follows the line ρ = x cos θ + y sin θ across the image and returns the stretches backed by aligned edge pixels. */
function walkLine(
  edgeAngle: Float32Array,
  width: number,
  height: number,
  normalAngle: number,
  rho: number,
  angleBin: number,
  maxGap: number,
): Run[] {
  const cos = Math.cos(normalAngle);
  const sin = Math.sin(normalAngle);
  const diagonal = Math.hypot(width, height);
  const runs: Run[] = [];
  let start: number | undefined;
  let lastHit = 0;
  const close = (end: number) => {
    if (start === undefined) return;
    const point = (t: number) => ({ x: rho * cos - t * sin, y: rho * sin + t * cos });
    const a = point(start);
    const b = point(end);
    runs.push({ x0: a.x, y0: a.y, x1: b.x, y1: b.y, length: end - start });
    start = undefined;
  };
  for (let t = -diagonal; t <= diagonal; t++) {
    const x = rho * cos - t * sin;
    const y = rho * sin + t * cos;
    if (x < 0 || y < 0 || x > width - 1 || y > height - 1) {
      close(lastHit);
      continue;
    }
    if (supportsLine(edgeAngle, width, height, Math.round(x), Math.round(y), angleBin)) {
      start ??= t;
      lastHit = t;
    } else if (start !== undefined && t - lastHit > maxGap) {
      close(lastHit);
    }
  }
  close(lastHit);
  return runs;
}

function supportsLine(edgeAngle: Float32Array, width: number, height: number, x: number, y: number, angleBin: number): boolean {
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const px = x + dx;
      const py = y + dy;
      if (px < 0 || py < 0 || px >= width || py >= height) continue;
      const theta = edgeAngle[py * width + px]!;
      if (theta >= 0 && angularDistance(theta, angleBin) <= ORIENTATION_TOLERANCE_DEG) return true;
    }
  }
  return false;
}

function consumeSupport(edgeAngle: Float32Array, width: number, height: number, run: Run, angleBin: number): void {
  const steps = Math.ceil(run.length);
  for (let s = 0; s <= steps; s++) {
    const t = steps === 0 ? 0 : s / steps;
    const x = Math.round(run.x0 + t * (run.x1 - run.x0));
    const y = Math.round(run.y0 + t * (run.y1 - run.y0));
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const px = x + dx;
        const py = y + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        const theta = edgeAngle[py * width + px]!;
        if (theta >= 0 && angularDistance(theta, angleBin) <= ORIENTATION_TOLERANCE_DEG) edgeAngle[py * width + px] = -1;
      }
    }
  }
}

function contrastAcross(planes: ColourPlanes, run: Run, normalAngle: number): number {
  const { width, height } = planes;
  const nx = Math.cos(normalAngle) * SIDE_OFFSET_PX;
  const ny = Math.sin(normalAngle) * SIDE_OFFSET_PX;
  const samples = Math.max(2, Math.round(run.length / 2));
  const difference = [0, 0, 0];
  for (let s = 0; s < samples; s++) {
    const t = (s + 0.5) / samples;
    // +0.5: sampleBilinear takes pixel-centre coordinates.
    const x = run.x0 + t * (run.x1 - run.x0) + 0.5;
    const y = run.y0 + t * (run.y1 - run.y0) + 0.5;
    [planes.r, planes.g, planes.b].forEach((plane, c) => {
      difference[c]! += sampleBilinear(plane, width, height, x + nx, y + ny) - sampleBilinear(plane, width, height, x - nx, y - ny);
    });
  }
  return Math.hypot(difference[0]! / samples, difference[1]! / samples, difference[2]! / samples);
}
