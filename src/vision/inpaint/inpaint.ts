import { resizeToLongSide } from '../geometry/resample.js';
import type { RawImage } from '../raw-image.js';
import { CHANNELS, downsampleLevel, fillFromRim, type Level } from './level.js';
import { textureFeatures } from './texture-features.js';
import { addBilinear, holeDepth, PatchMatchLevel, type PatchMatchOptions } from './patch-match.js';
import { dominantOffsets } from './dominant-offsets.js';
import { dilateSquare } from '../mask-morphology.js';
import { IMAGE_PLANE, type Surface } from './surfaces.js';
import { continueLines, type LineStructure } from './line-structure.js';
import { matchMembrane } from './membrane-base.js';

/** Which plane each pixel lies on, at any resolution (it is sampled nearest-neighbour). */
export interface SurfaceMap {
  surfaces: readonly Surface[];
  /** Index into `surfaces` per pixel; values outside the list mean "no known plane". */
  labels: Uint8Array;
  width: number;
  height: number;
}

export interface InpaintInput {
  /** RGB, 3 channels, the photo at full resolution. */
  image: RawImage;
  /** 1 where pixels are to be replaced, the photo's size. */
  hole: Uint8Array;
  /** 1 where nothing may be copied from (other objects, openings), the photo's size. */
  excluded?: Uint8Array;
  /** The room's planes; without them the search copies in image space (plain PatchMatch). */
  surfaces?: SurfaceMap;
}

/**
 * A hole counts as large when its deepest pixel lies farther from its rim than this share of the working image's
 * longer side (about 100 px across at 1,024 px: a tenth of the photo).
 */
export const LARGE_HOLE_DEPTH_SHARE = 0.05;

export interface InpaintOptions {
  /** Longer side of the finest level the search runs on; larger photos get a final vote at full size. Default 1024. */
  workingSize?: number;
  /**
   * Shorter side under which no coarser level is made. Default 32: on much smaller images a patch sees too much of
   * the room to tell floor from wall. Levels also stop once the hole is at most a patch deep.
   */
  coarsestSize?: number;
  /**
   * Patch half-size at every level. Default 4 (9×9): a patch narrower than a texture's period can sit between its
   * lines (floorboard seams), and the fill then drops them.
   */
  patchRadius?: number;
  /**
   * Half-size, in finest-level pixels, of the patches whose votes make the full-size result. Default 0: each pixel
   * takes its own patch's copy. Measured on the bench's holes, averaging 3×3 patches (1) smoothed the fill to 0.72 of
   * the answer's texture against 0.82 for 0, at the same PSNR.
   */
  finalVoteRadius?: number;
  /** Search-and-vote rounds per level (the coarsest gets twice as many). Default 4. */
  iterations?: number;
  /** PatchMatch passes per round. Default 2. */
  searchPasses?: number;
  /** Width in photo pixels of the feathered seam outside the hole. Default 2. */
  seam?: number;
  /**
   * Weight of the texture features against the colours in the patch distance (see CHANNELS). Default 0.5: on the
   * bench's 22 holes (median PSNR / texture ratio / mean edge continuity) 0 gave 27.17 / 0.85 / 0.51, 0.5 gave
   * 27.34 / 0.85 / 0.54, 1 gave 26.92 / 0.86 / 0.53 and 2 gave 26.57 / 0.85 / 0.57.
   */
  textureWeight?: number;
  /** Try the texture's most frequent self-offsets as candidates everywhere (see dominantOffsets). Default true. */
  dominantOffsets?: boolean;
  /**
   * See PatchMatchOptions. Defaults 0, 3 and 1.15: on the bench's holes a scale penalty of 0.5 cost 0.7 dB of median
   * PSNR (it kept patches from the same depth even where a nearer or farther one matched better); the 3× limit on
   * the area scale already keeps blurred far texture out of near holes.
   */
  scalePenalty?: number;
  maxScale?: number;
  planeBias?: number;
  /**
   * See PatchMatchOptions: the area magnification allowed deeper than ownSurfaceDepth (maxScale holds nearer the
   * rim). Default 1.25. With bestVoteLevels, whole-pixel copies at full size, ownSurfaceDepth and rimTextureShare it
   * keeps the texture in the middle of large holes (bench:declutter part L; docs/decisions/0007-declutter-fill.md,
   * addendum of 2026-11-26).
   */
  maxMagnification?: number;
  /**
   * See PatchMatchOptions, here in finest-level pixels: each coarser level holds the rules from the same depth in the
   * photo (half as many of its pixels per level). Default twice patchRadius.
   */
  ownSurfaceDepth?: number;
  /** See PatchMatchOptions. Default 0.5. */
  rimTextureShare?: number;
  /**
   * How many of the finest levels vote with each hole pixel's own patch only (no mean of the overlapping patches).
   * Default 1 (the finest level). The mean blurs wherever neighbouring patches disagree, as they do deep in a large hole, and a blurred
   * guess then draws smooth sources at the next search.
   */
  bestVoteLevels?: number;
  /**
   * Carry the straight lines that cross the hole through it before the patch search (see continueLines): a segment
   * ending at the rim and one on the same line starting at the far rim are joined by a band copied along the line.
   * Default: on large holes only (see LARGE_HOLE_DEPTH_SHARE).
   */
  continueLines?: boolean;
  /**
   * Radius, in working pixels, of the blur (three box passes) below which the fill takes the low frequencies of a
   * membrane across the hole (see matchMembrane); 0 turns it off. Default 4 on holes that are not large, 0 on large
   * ones. On the bench's 22 holes (the 16 that are not large) it raised the median PSNR from 26.0 to 28.1 dB
   * (texture 0.86 → 0.90); a radius of 8 gave 27.7 dB, gaining less on 11 of the 16 and losing less on the other 5
   * (a skirting or a rug's edge across the hole: the membrane blurs a step there). A large hole's middle is too far
   * from its rim for a membrane to say anything about it.
   */
  membraneRadius?: number;
  /** Seed of the random search: the same input and seed give the same pixels. Default 1. */
  seed?: number;
  /** A group with fewer source pixels than this (finest level) copies from anywhere instead. Default 400. */
  minSurfaceSources?: number;
  /** Also return where each hole pixel of the finest level was copied from (for benchmarks). Default false. */
  reportSources?: boolean;
  signal?: AbortSignal;
  progress?: (fraction: number) => void;
}

/** Where the fill came from: per finest-level pixel, the photo position its patch centre was copied from (NaN off the hole). */
export interface FillSources {
  width: number;
  height: number;
  x: Float32Array;
  y: Float32Array;
}

export interface InpaintResult {
  image: RawImage;
  sources?: FillSources;
  report: {
    levels: number;
    working: { width: number; height: number };
    /** Hole pixels per surface name at the finest level. */
    holeBySurface: Record<string, number>;
    milliseconds: number;
  };
}

/**
 * Fills the hole with texture copied from the rest of the photo: coarse-to-fine PatchMatch with voting (Wexler et al.
 * 2007; Barnes et al. 2009), patches copied along the room's planes where they are known (Huang et al. 2014). Pixels
 * outside the hole and its seam are returned untouched.
 */
export function inpaint(input: InpaintInput, options: InpaintOptions = {}): InpaintResult {
  const started = performance.now();
  const { image } = input;
  if (image.channels !== 3) throw new Error('inpaint works on RGB images');
  const patchRadius = options.patchRadius ?? 4;
  const random = xorshift(options.seed ?? 1);
  const surfaces = [...(input.surfaces?.surfaces ?? []), IMAGE_PLANE];
  const fallback = surfaces.length - 1;

  const workingSize = options.workingSize ?? 1024;
  let finest = finestLevel(input, workingSize, options.textureWeight ?? 0.5, fallback);
  // The large-hole rules (own-patch votes, own-surface and rim-texture sources, the magnification limit deep inside)
  // keep texture in the middle of a hole a third of the photo wide, but on object-sized holes they cost PSNR and
  // let textured furniture in where a smooth floor was refused (ADR 0007, addendum of 2026-11-26): they apply only
  // to a hole whose deepest pixel lies farther from its rim than LARGE_HOLE_DEPTH_SHARE of the working image.
  const large = holeDepth(finest.hole, finest.width, finest.height).reduce((a, b) => Math.max(a, b), 0) > LARGE_HOLE_DEPTH_SHARE * Math.max(finest.width, finest.height);
  // Lines crossing the hole are carried through first; the search then fills the hole less their bands.
  let structure: LineStructure | undefined;
  if (options.continueLines ?? large) {
    const blocked = new Uint8Array(finest.hole.length);
    for (let i = 0; i < blocked.length; i++) blocked[i] = finest.hole[i] || finest.excluded[i] ? 1 : 0;
    structure = continueLines(image, input.hole, input.excluded, resizeToLongSide(image, workingSize), finest.hole, blocked);
    if (structure.lines > 0) {
      input = { ...input, image: structure.image, hole: structure.hole };
      finest = finestLevel(input, workingSize, options.textureWeight ?? 0.5, fallback);
    } else structure = undefined;
  }
  const maxScale = options.maxScale ?? 3;
  const matchOptions: PatchMatchOptions = {
    patchRadius,
    scalePenalty: options.scalePenalty ?? 0,
    maxScale,
    planeBias: options.planeBias ?? 1.15,
    maxMagnification: options.maxMagnification ?? (large ? 1.25 : maxScale),
    ownSurfaceDepth: options.ownSurfaceDepth ?? (large ? 2 * patchRadius : Infinity),
    rimTextureShare: options.rimTextureShare ?? (large ? 0.5 : 0),
  };
  const bestVoteLevels = options.bestVoteLevels ?? (large ? 1 : 0);
  const holeBySurface = demoteSparseSurfaces(finest, surfaces, fallback, options.minSurfaceSources ?? 400);
  const levels: Level[] = [finest];
  const coarsest = options.coarsestSize ?? 32;
  for (;;) {
    const last = levels.at(-1)!;
    if (Math.min(last.width, last.height) / 2 < coarsest) break;
    const depth = holeDepth(last.hole, last.width, last.height).reduce((a, b) => Math.max(a, b), 0);
    if (depth <= 2 * patchRadius) break;
    levels.push(downsampleLevel(last));
  }

  const iterations = options.iterations ?? 4;
  const passes = options.searchPasses ?? 2;
  // The texture's repetitions, found once on a level of about 256 pixels (plane offsets hold at every level).
  const statisticsLevel = levels.find((l) => Math.max(l.width, l.height) <= 320) ?? levels.at(-1)!;
  const dominant = options.dominantOffsets === false ? [] : dominantOffsets(statisticsLevel, surfaces, fallback, random);
  let coarser: PatchMatchLevel | undefined;
  const work = levels.map((l) => l.width * l.height);
  const totalWork = work.reduce((a, b) => a + b, 0);
  let done = 0;
  for (let index = levels.length - 1; index >= 0; index--) {
    const level = levels[index]!;
    if (coarser) upsampleHoleColours(coarser.level, level);
    else fillFromRim(level);
    // The deep rules start at the same distance from the rim in the photo at every level (ownSurfaceDepth is in
    // finest-level pixels). Held at a fixed count of each level's own pixels, a band that was near the rim, and so
    // free, at the coarser level was deep at the finer one: the offsets it inherited were refused there, and the
    // search settled on whatever allowed source lay near (on bed03's floor, the darker boards below the hole), which
    // drew a dark ring along the rim at 2 patch radii deep and a smaller one at each coarser level's boundary
    // (ADR 0007, addendum on the rings).
    const matcher = new PatchMatchLevel(level, surfaces, fallback, levelMatchOptions(matchOptions, level.scale / finest.scale), random);
    matcher.useDominantOffsets(dominant);
    matcher.initialise(coarser);
    // The coarser field, voted with this level's pixels, is a sharper start than the coarser picture enlarged.
    const best = index < bestVoteLevels;
    if (coarser) matcher.vote(best);
    const rounds = coarser ? iterations : 2 * iterations;
    for (let round = 0; round < rounds; round++) {
      for (let pass = 0; pass < passes; pass++) matcher.search(round * passes + pass);
      matcher.vote(best);
      options.signal?.throwIfAborted();
    }
    done += work[index]!;
    options.progress?.(0.9 * (done / totalWork));
    coarser = matcher;
  }

  const seam = options.seam ?? 2;
  let output = finalVote(input, coarser!, options.finalVoteRadius ?? 0, seam);
  const membraneRadius = options.membraneRadius ?? (large ? 0 : 4);
  if (membraneRadius > 0) {
    output = matchMembrane(input.image, output, input.hole, seamAlpha(input.hole, image.width, image.height, seam), membraneRadius * finest.scale);
  }
  options.progress?.(1);
  return {
    image: output,
    ...(options.reportSources ? { sources: fillSources(coarser!, structure) } : {}),
    report: {
      levels: levels.length,
      working: { width: finest.width, height: finest.height },
      holeBySurface,
      milliseconds: Math.round(performance.now() - started),
    },
  };
}

/**
 * The search options of a level `factor` times coarser than the finest: the depth from which the deep rules hold
 * (ownSurfaceDepth, in finest-level pixels) in that level's pixels, so that they start at the same place in the photo
 * at every level (to within a pixel of that level) and a finer level inherits offsets found under the rules it holds.
 */
export function levelMatchOptions(options: PatchMatchOptions, factor: number): PatchMatchOptions {
  return options.ownSurfaceDepth === undefined ? options : { ...options, ownSurfaceDepth: options.ownSurfaceDepth / factor };
}

/** The photo at the working size, with the hole and the exclusions pooled (a pixel is hole if any part of it is). */
function finestLevel(input: InpaintInput, workingSize: number, textureWeight: number, fallback: number): Level {
  const { image } = input;
  const small = resizeToLongSide(image, workingSize);
  const { width, height } = small;
  const scale = image.width / width;
  // The reduction's filter reaches one working pixel past the pixels it pools: grown by one, the hole (and what is
  // excluded) takes in every working pixel that a removed object's colours bled into.
  const reach = scale > 1 ? 1 : 0;
  const hole = dilateSquare(poolMax(input.hole, image.width, image.height, width, height), width, height, reach);
  const excluded = input.excluded
    ? dilateSquare(poolMax(input.excluded, image.width, image.height, width, height), width, height, reach)
    : new Uint8Array(width * height);
  const features = textureFeatures(small, hole, textureWeight);
  const colour = new Float32Array(width * height * CHANNELS);
  for (let i = 0; i < width * height; i++) {
    colour.set(small.data.subarray(3 * i, 3 * i + 3), CHANNELS * i);
    colour[CHANNELS * i + 3] = features[2 * i]!;
    colour[CHANNELS * i + 4] = features[2 * i + 1]!;
  }
  const group = new Uint8Array(width * height).fill(fallback);
  const map = input.surfaces;
  if (map) {
    for (let y = 0; y < height; y++) {
      const ly = Math.min(map.height - 1, Math.floor(((y + 0.5) / height) * map.height));
      for (let x = 0; x < width; x++) {
        const lx = Math.min(map.width - 1, Math.floor(((x + 0.5) / width) * map.width));
        const label = map.labels[ly * map.width + lx]!;
        group[y * width + x] = label < fallback ? label : fallback;
      }
    }
  }
  return { width, height, colour, hole, excluded, group, scale };
}

/** Surfaces with too little to copy from hand their pixels to the image-plane fallback. */
function demoteSparseSurfaces(level: Level, surfaces: readonly Surface[], fallback: number, minimum: number): Record<string, number> {
  const sources = new Array<number>(surfaces.length).fill(0);
  for (let i = 0; i < level.group.length; i++) if (!level.hole[i] && !level.excluded[i]) sources[level.group[i]!]!++;
  for (let i = 0; i < level.group.length; i++) {
    const g = level.group[i]!;
    if (g !== fallback && sources[g]! < minimum) level.group[i] = fallback;
  }
  const holeBySurface: Record<string, number> = {};
  for (let i = 0; i < level.group.length; i++) {
    if (!level.hole[i]) continue;
    const name = surfaces[level.group[i]!]!.name;
    holeBySurface[name] = (holeBySurface[name] ?? 0) + 1;
  }
  return holeBySurface;
}

/** A pixel of the smaller mask is set when any photo pixel it covers is. */
function poolMax(mask: Uint8Array, width: number, height: number, outWidth: number, outHeight: number): Uint8Array {
  const out = new Uint8Array(outWidth * outHeight);
  for (let y = 0; y < height; y++) {
    const oy = Math.min(outHeight - 1, Math.floor((y * outHeight) / height));
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x]) out[oy * outWidth + Math.min(outWidth - 1, Math.floor((x * outWidth) / width))] = 1;
    }
  }
  return out;
}

/** Starts the finer level's hole from the coarser level's result. */
function upsampleHoleColours(coarse: Level, fine: Level): void {
  const sums = new Float32Array(CHANNELS);
  const ratio = coarse.width / fine.width;
  const ratioY = coarse.height / fine.height;
  for (let y = 0; y < fine.height; y++) {
    for (let x = 0; x < fine.width; x++) {
      const i = y * fine.width + x;
      if (!fine.hole[i]) continue;
      sums.fill(0);
      addBilinear(coarse.colour, CHANNELS, coarse.width, coarse.height, (x + 0.5) * ratio, (y + 0.5) * ratioY, 1, sums, 0);
      fine.colour.set(sums, CHANNELS * i);
    }
  }
}

/**
 * The full-size result: every patch of the finest field votes, with its cost's weight, for the photo pixels it
 * covers, taking the nearest full-size photo pixel through its plane offset; so the fill carries the photo's own
 * resolution and sharpness.
 * Hole pixels take the vote; a seam of `seam` pixels around them blends vote and original.
 */
function finalVote(input: InpaintInput, matcher: PatchMatchLevel, radius: number, seam: number): RawImage {
  const { image, hole } = input;
  const { width, height } = image;
  const level = matcher.level;
  const { field } = matcher;
  const s = level.scale;
  const alpha = seamAlpha(hole, width, height, seam);
  // Compact indexing of the pixels that get a value.
  const index = new Int32Array(width * height).fill(-1);
  let count = 0;
  for (let i = 0; i < alpha.length; i++) if (alpha[i]! > 0) index[i] = count++;
  const sums = new Float32Array(count * 3);
  const weights = new Float32Array(count);
  const costs: number[] = [];
  for (let t = 0; t < field.targets.length; t++) if (field.cost[t]! < Infinity) costs.push(field.cost[t]! / (CHANNELS * field.support[t]!));
  costs.sort((a, b) => a - b);
  const variance = Math.max(1, costs[Math.floor(0.75 * (costs.length - 1))] ?? 1);
  for (let t = 0; t < field.targets.length; t++) {
    if (!(field.cost[t]! < Infinity)) continue;
    const p = field.targets[t]!;
    const px = p % level.width;
    const py = (p - px) / level.width;
    const group = field.surface[t]!;
    // Never 0 (a float32 underflow, on a patch far costlier than most): a pixel no patch votes for would keep its
    // input, the removed object's own colour.
    const weight = Math.max(1e-30, Math.exp(-field.cost[t]! / (CHANNELS * field.support[t]!) / (2 * variance)));
    // The copy map at full size, linearised at the patch centre.
    const cx = (px + 0.5) * s;
    const cy = (py + 0.5) * s;
    const ox = field.offsetX[t]!;
    const oy = field.offsetY[t]!;
    const [sx, sy] = matcher.mapThroughPlane(group, px + 0.5, py + 0.5, ox, oy);
    const [ax, ay] = matcher.mapThroughPlane(group, px + 1.5, py + 0.5, ox, oy);
    const [bx, by] = matcher.mapThroughPlane(group, px + 0.5, py + 1.5, ox, oy);
    const j00 = ax - sx;
    const j01 = bx - sx;
    const j10 = ay - sy;
    const j11 = by - sy;
    const x0 = Math.max(0, Math.floor((px - radius) * s));
    const x1 = Math.min(width, Math.ceil((px + radius + 1) * s));
    const y0 = Math.max(0, Math.floor((py - radius) * s));
    const y1 = Math.min(height, Math.ceil((py + radius + 1) * s));
    for (let y = y0; y < y1; y++) {
      const dy = (y + 0.5 - cy) / s;
      for (let x = x0; x < x1; x++) {
        const k = index[y * width + x]!;
        if (k < 0) continue;
        const dx = (x + 0.5 - cx) / s;
        // Level-pixel source position, then to photo pixels.
        const ux = (sx + j00 * dx + j01 * dy) * s;
        const uy = (sy + j10 * dx + j11 * dy) * s;
        // The nearest whole photo pixel: a bilinear sample between pixels is a small blur, and most copies land
        // between pixels (plane offsets, and any working scale above 1).
        addBilinear(image.data, 3, width, height, Math.floor(ux) + 0.5, Math.floor(uy) + 0.5, weight, sums, 3 * k);
        weights[k]! += weight;
      }
    }
  }
  const out = new Uint8Array(image.data);
  for (let i = 0; i < alpha.length; i++) {
    const k = index[i]!;
    if (k < 0 || !(weights[k]! > 0)) continue;
    const a = alpha[i]!;
    for (let c = 0; c < 3; c++) {
      const fill = sums[3 * k + c]! / weights[k]!;
      out[3 * i + c] = Math.max(0, Math.min(255, Math.round(a * fill + (1 - a) * image.data[3 * i + c]!)));
    }
  }
  return { data: out, width, height, channels: 3 };
}

function fillSources(matcher: PatchMatchLevel, structure: LineStructure | undefined): FillSources {
  const { level, field } = matcher;
  const x = new Float32Array(level.width * level.height).fill(Number.NaN);
  const y = new Float32Array(level.width * level.height).fill(Number.NaN);
  if (structure) {
    // A line's band: the photo pixel it copied, at the working pixel it lies in.
    const { width, height } = structure.image;
    for (let i = 0; i < structure.sourceX.length; i++) {
      if (Number.isNaN(structure.sourceX[i]!)) continue;
      const px = i % width;
      const py = (i - px) / width;
      const p = Math.min(level.height - 1, Math.floor((py * level.height) / height)) * level.width + Math.min(level.width - 1, Math.floor((px * level.width) / width));
      x[p] = structure.sourceX[i]!;
      y[p] = structure.sourceY[i]!;
    }
  }
  for (let t = 0; t < field.targets.length; t++) {
    const p = field.targets[t]!;
    if (!level.hole[p] || !(field.cost[t]! < Infinity)) continue;
    const [sx, sy] = matcher.sourceOf(t, p);
    x[p] = sx * level.scale;
    y[p] = sy * level.scale;
  }
  return { width: level.width, height: level.height, x, y };
}

/** 1 inside the hole, falling linearly to 0 over `seam` pixels outside it, 0 elsewhere. */
function seamAlpha(hole: Uint8Array, width: number, height: number, seam: number): Float32Array {
  const alpha = new Float32Array(width * height);
  let ring = hole;
  for (let i = 0; i < hole.length; i++) if (hole[i]) alpha[i] = 1;
  for (let step = 1; step <= seam; step++) {
    const grown = dilateSquare(ring, width, height, 1);
    const value = 1 - step / (seam + 1);
    for (let i = 0; i < grown.length; i++) if (grown[i] && !ring[i]) alpha[i] = value;
    ring = grown;
  }
  return alpha;
}

/** A small deterministic generator (xorshift32) in [0, 1). */
function xorshift(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}
