import { smoothstep } from '../shaping.js';
import type { FloorMaterial } from '../../catalog/floor-materials.js';
import { linearOfHex } from './hex-colour.js';

/**
 * Floor materials generated from a seed, sampled on the floor plane in metres. Every pattern is band-limited by the
 * pixel's footprint on the floor: detail finer than the footprint fades to its mean and seams are box-filtered, so a
 * floor seen at a grazing angle near the horizon settles to its average colour instead of shimmering (moiré). The materials themselves are catalog data
 * (catalog/floor-materials.ts).
 */

/** A material's own seed: the same material looks the same on every photo. */
export function floorSeedOf(id: string): number {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  return (hash >>> 1) & 0x7fffffff;
}

/** Writes the linear-RGB albedo at floor point (u, v) metres, seen by a pixel `footprint` metres wide, into `out`. */
export type FloorSampler = (u: number, v: number, footprint: number, out: Float64Array) => void;

/** The material's albedo as a function of the floor point; the same seed gives the same floor. */
export function floorSampler(material: FloorMaterial, seed: number): FloorSampler {
  const base = linearOfHex(material.colour);
  const seam = material.seam ? { width: material.seam.width, colour: linearOfHex(material.seam.colour) } : undefined;
  const veins = material.veins ? { colour: linearOfHex(material.veins.colour), strength: material.veins.strength } : undefined;
  const noise = new ValueNoise(seed);
  const tone = new Float64Array(3);
  switch (material.pattern) {
    case 'planks':
      return planks(material, base, seam!, noise, tone);
    case 'chevron':
      return chevron(material, base, seam!, noise, tone);
    case 'tiles':
      return tiles(material, base, seam!, veins, noise, tone);
    case 'carpet':
      return (u, v, footprint, out) => {
        // Fibre at a few millimetres over a soft mottling of a few decimetres.
        const fibre = noise.band(u, v, material.size, footprint, 2);
        const mottle = noise.band(u, v, 0.25, footprint, 1);
        scaleInto(out, base, 1 + material.grain * fibre + 0.04 * mottle);
      };
    case 'concrete':
      return (u, v, footprint, out) => {
        const cloud = noise.band(u, v, material.size, footprint, 3);
        const speck = noise.band(u, v, 0.004, footprint, 1);
        scaleInto(out, base, 1 + material.grain * cloud + 0.05 * speck);
      };
  }
}

function planks(material: FloorMaterial, base: Float64Array, seam: { width: number; colour: Float64Array }, noise: ValueNoise, tone: Float64Array): FloorSampler {
  const width = material.size;
  const [shortest, longest] = material.length!;
  return (u, v, footprint, out) => {
    // Boards run along v (away from the camera); each row of boards is offset by its own random amount.
    const row = Math.floor(u / width);
    const offset = hash2(row, 17) * longest;
    const along = v + offset;
    // Board ends at irregular intervals: fixed-length slots, each board ending at a random point of its slot.
    const slot = Math.floor(along / longest);
    const cut = shortest + hash2(row, slot) * (longest - shortest);
    const inSlot = along - slot * longest;
    const board = inSlot < cut ? 2 * slot : 2 * slot + 1;
    const boardStart = inSlot < cut ? 0 : cut;
    const boardEnd = inSlot < cut ? cut : longest;
    const across = u - row * width;
    pieceTone(base, material.pieceVariation, hash2(row, board), hash2(board, row + 31), tone);
    const grain = woodGrain(noise, across, along, width, footprint, row * 7.31 + board * 1.7);
    scaleInto(out, tone, 1 + material.grain * grain);
    const side = lineCoverage(Math.min(across, width - across), seam.width / 2, footprint, width);
    const end = lineCoverage(Math.min(inSlot - boardStart, boardEnd - inSlot), seam.width / 2, footprint, longest);
    mixInto(out, seam.colour, Math.max(side, end));
  };
}

function chevron(material: FloorMaterial, base: Float64Array, seam: { width: number; colour: Float64Array }, noise: ValueNoise, tone: Float64Array): FloorSampler {
  const width = material.size;
  const length = material.length![0];
  // Blocks at 45°: a strip of the floor as wide as a block's length projected across it, blocks slanting one way in
  // even strips and the other way in odd ones, meeting at the strips' borders in the chevron's points.
  const strip = length * Math.SQRT1_2;
  const pitch = width * Math.SQRT2;
  return (u, v, footprint, out) => {
    const s = Math.floor(u / strip);
    const local = u - s * strip;
    const slant = s % 2 === 0 ? local : strip - local;
    const lane = (v - slant) / pitch;
    const block = Math.floor(lane);
    const across = (lane - block) * width;
    const along = slant * Math.SQRT2;
    pieceTone(base, material.pieceVariation, hash2(s, block), hash2(block, s + 13), tone);
    const grain = woodGrain(noise, across, along, width, footprint, s * 3.1 + block * 0.77);
    scaleInto(out, tone, 1 + material.grain * grain);
    const side = lineCoverage(Math.min(across, width - across), seam.width / 2, footprint, width);
    const point = lineCoverage(Math.min(local, strip - local), seam.width / 2, footprint, strip);
    mixInto(out, seam.colour, Math.max(side, point));
  };
}

function tiles(
  material: FloorMaterial,
  base: Float64Array,
  seam: { width: number; colour: Float64Array },
  veins: { colour: Float64Array; strength: number } | undefined,
  noise: ValueNoise,
  tone: Float64Array,
): FloorSampler {
  const side = material.size;
  return (u, v, footprint, out) => {
    const column = Math.floor(u / side);
    const row = Math.floor(v / side);
    const x = u - column * side;
    const y = v - row * side;
    pieceTone(base, material.pieceVariation, hash2(column, row), hash2(row, column + 5), tone);
    const cloud = noise.band(u, v, 0.15, footprint, 3);
    scaleInto(out, tone, 1 + material.grain * cloud);
    if (veins) {
      // Each slab is cut from its own part of the block: a vein field of its own, long veins wandering with a slow
      // turbulence and finer ones crossing them, sharp where the footprint allows.
      const angle = hash2(column, row + 101) * Math.PI;
      const ox = u + hash2(column + 7, row) * 40;
      const oy = v + hash2(column, row + 9) * 40;
      const along = ox * Math.cos(angle) + oy * Math.sin(angle);
      const across = -ox * Math.sin(angle) + oy * Math.cos(angle);
      const fade = 1 - smoothstep(0.01, 0.08, footprint);
      const main = Math.abs(Math.sin(Math.PI * (along / 0.8 + 0.9 * noise.band(ox, oy, 0.7, footprint, 3))));
      const fine = Math.abs(Math.sin(Math.PI * (across / 0.3 + 1.4 * noise.band(oy, ox, 0.35, footprint, 3))));
      const width = 0.035 + footprint / 0.2;
      const vein = Math.max(1 - smoothstep(0, width, main), 0.45 * (1 - smoothstep(0, 0.6 * width, fine)));
      mixInto(out, veins.colour, vein * veins.strength * fade);
    }
    const grout = Math.max(
      lineCoverage(Math.min(x, side - x), seam.width / 2, footprint, side),
      lineCoverage(Math.min(y, side - y), seam.width / 2, footprint, side),
    );
    mixInto(out, seam.colour, grout);
  };
}

/**
 * Wood grain in [-1, 1]: long streaks along the board (noise stretched 40:1) with a slower figure across it, fading
 * where the footprint is wider than the streaks.
 */
function woodGrain(noise: ValueNoise, across: number, along: number, width: number, footprint: number, shift: number): number {
  const streak = noise.stretched(across / (width * 0.08) + shift * 13, along / (width * 3), footprint / (width * 0.08));
  const figure = noise.stretched(across / (width * 0.5) + shift * 5, along / (width * 8), footprint / (width * 0.5));
  return 0.65 * streak + 0.35 * figure;
}

/** The piece's own colour: the base scaled in lightness (±variation) and warmed or cooled slightly. */
function pieceTone(base: Float64Array, variation: number, a: number, b: number, out: Float64Array): void {
  const light = 1 + variation * (2 * a - 1);
  const warm = 1 + 0.3 * variation * (2 * b - 1);
  out[0] = base[0]! * light * warm;
  out[1] = base[1]! * light;
  out[2] = base[2]! * light / warm;
}

/**
 * Share of a pixel `footprint` wide, centred `distance` from the middle of a line `halfWidth` wide (lines repeat every
 * `period`), that the line covers: the box-filtered line, tending to its mean share 2·halfWidth/period from afar.
 */
function lineCoverage(distance: number, halfWidth: number, footprint: number, period: number): number {
  const mean = (2 * halfWidth) / period;
  if (footprint >= period / 2) return mean;
  const w = Math.max(footprint, 1e-5);
  const overlap = Math.max(0, Math.min(distance + w / 2, halfWidth) - Math.max(distance - w / 2, -halfWidth));
  return Math.min(1, overlap / w);
}

function scaleInto(out: Float64Array, colour: Float64Array, factor: number): void {
  const f = Math.max(0, factor);
  out[0] = colour[0]! * f;
  out[1] = colour[1]! * f;
  out[2] = colour[2]! * f;
}

function mixInto(out: Float64Array, colour: Float64Array, share: number): void {
  if (share <= 0) return;
  out[0] = out[0]! + (colour[0]! - out[0]!) * share;
  out[1] = out[1]! + (colour[1]! - out[1]!) * share;
  out[2] = out[2]! + (colour[2]! - out[2]!) * share;
}

/** A deterministic number in [0, 1) of two integers. */
function hash2(a: number, b: number): number {
  let h = Math.imul(a | 0, 0x27d4eb2d) ^ Math.imul(b | 0, 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise on an integer lattice, in [-1, 1], seeded. */
class ValueNoise {
  constructor(private readonly seed: number) {}

  private at(x: number, y: number): number {
    return 2 * hash2(x + Math.imul(this.seed, 374761393), y ^ this.seed) - 1;
  }

  /** Bilinearly interpolated lattice noise with a smooth (cubic) blend. */
  sample(x: number, y: number): number {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const sx = fx * fx * (3 - 2 * fx);
    const sy = fy * fy * (3 - 2 * fy);
    const a = this.at(x0, y0);
    const b = this.at(x0 + 1, y0);
    const c = this.at(x0, y0 + 1);
    const d = this.at(x0 + 1, y0 + 1);
    return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
  }

  /**
   * Fractal noise whose coarsest wavelength is `scale` metres, `octaves` octaves each half the last, each fading out
   * once the footprint reaches half its wavelength.
   */
  band(u: number, v: number, scale: number, footprint: number, octaves: number): number {
    let sum = 0;
    let amplitude = 1;
    let wavelength = scale;
    let norm = 0;
    for (let o = 0; o < octaves; o++) {
      const weight = amplitude * (1 - smoothstep(0.25 * wavelength, 0.5 * wavelength, footprint));
      if (weight > 0) sum += weight * this.sample(u / wavelength + 17.3 * o, v / wavelength - 9.1 * o);
      norm += amplitude;
      amplitude *= 0.5;
      wavelength *= 0.5;
    }
    return sum / norm;
  }

  /** Noise on already-scaled coordinates whose finer axis has a footprint of `footprint` lattice units. */
  stretched(x: number, y: number, footprint: number): number {
    return this.sample(x, y) * (1 - smoothstep(0.25, 0.5, footprint));
  }
}
