import { connectedComponents } from '../connected-components.js';
import type { Box } from '../box.js';
import type { RawImage } from '../raw-image.js';
import { downsampleToPlanes } from '../colour-planes.js';
import { closeMask } from '../mask-morphology.js';
import { clusterDistance, fitFeatureClusters, nearestCluster, type FeatureClusters } from './feature-clusters.js';
import { floorFeatures, robustQuadraticSurface } from './floor-appearance.js';
import { dilateRound, squaredDistanceToMask } from './mask-shapes.js';
import { sampleMaskOnGrid } from './region-grid.js';
import { upsampleMask } from './upsample-mask.js';

export interface ClutterOptions {
  /** Longer side of the working copy, in cells. Default 512. */
  workingSize?: number;
  /** Anomaly score (length of the robust z-score vector, see clusterDistance) above which a cell stands out. Default 5. */
  threshold?: number;
  /**
   * A region whose chromaticity and texture alone score below this (median over the region) differs from the floor
   * only in brightness: a sun patch or a shadow, not an object. Default 3.
   */
  lightingThreshold?: number;
  /** Most appearance clusters of the floor (a patterned floor has several). Default 4. */
  clusters?: number;
  /** Least share of the floor's cells a cluster must hold to count as floor. Default 0.15. */
  minClusterShare?: number;
  /** Least area of a clutter region, as a share of the floor's area. Default 0.002. */
  minArea?: number;
  /** Largest area of a clutter region, as a share of the floor's area (bigger is a rug or a floor misjudged). Default 0.25. */
  maxShare?: number;
  /** Radius, in cells, of the opening that removes thin structures (board seams, grout, the skirting line). Default 2. */
  lineRadius?: number;
  /**
   * Least inscribed radius, in cells, of a clutter region: bands along edges (a sun patch's border, where the texture
   * measure rises) are thinner. Default 4.
   */
  minRadius?: number;
  /** Floor border ignored, as a share of the working copy's longer side (the layout's floor edge is approximate). Default 0.012. */
  edgeBand?: number;
  /** Growth of the returned mask, in cells. Default 1.5. */
  margin?: number;
}

export interface ClutterResult {
  /** Bounding boxes of the clutter regions, in image pixels (of their floor part only). */
  boxes: Box[];
  /** Full-image mask, 1 on clutter. */
  mask: Uint8Array;
}

/** Least spreads of the features: shade (log luminance), warmth and tint (log chromaticity), log texture. */
const MIN_SPREAD = [0.04, 0.05, 0.012, 0.25] as const;
const ALL_FEATURES = [true, true, true, true] as const;
const TRIM_ROUNDS = 2;
/** The floor is tiled into this many blocks a side to judge whether a look recurs over it. */
const STATIONARITY_GRID = 6;
/** Share of the floor's blocks a cluster must appear in (≥ 5 % of the block) to be part of the floor's look. */
const MIN_PRESENCE = 0.3;
const LIGHT_INVARIANT = [false, true, true, true] as const;

/**
 * Clutter no detector named: regions of the floor whose appearance stands out from the floor's own statistics.
 * The floor's look is modelled by a few robust clusters of per-cell features (log luminance less a robust quadratic
 * lighting surface, log chromaticity, clipped log-gradient texture) over floor cells away from the floor's edge and not
 * already masked; looks that do not recur across the floor are left out of the model (see floorModel). Cells far from
 * every cluster (blown-out highlights excepted), less thin structures (an opening), form components; those of a
 * plausible size and thickness that differ in colour or texture — not only in brightness, which is what sun patches and
 * shadows do — are clutter. `floorLabels` and `known` are full-image masks (non-zero = set). The mask covers only the
 * floor part of each region: pass `boxes` to objectMask for full outlines and contact shadows.
 */
export function findClutter(image: RawImage, floorLabels: Uint8Array, known: Uint8Array, options: ClutterOptions = {}): ClutterResult {
  const workingSize = options.workingSize ?? 512;
  const threshold = options.threshold ?? 5;
  const lightingThreshold = options.lightingThreshold ?? 3;
  const clusterCount = options.clusters ?? 4;
  const minClusterShare = options.minClusterShare ?? 0.15;
  const minArea = options.minArea ?? 0.002;
  const maxShare = options.maxShare ?? 0.25;
  const lineRadius = options.lineRadius ?? 2;
  const minRadius = options.minRadius ?? 4;
  const edgeBand = options.edgeBand ?? 0.012;
  const margin = options.margin ?? 1.5;

  const planes = downsampleToPlanes(image, workingSize);
  const { width, height } = planes;
  const n = width * height;
  const grid = { x0: 0, y0: 0, x1: image.width, y1: image.height, width, height, scaleX: image.width / width, scaleY: image.height / height };
  const floor = sampleMaskOnGrid(floorLabels, image.width, grid);
  const knownCells = dilateRound(sampleMaskOnGrid(known, image.width, grid), width, height, 2);

  // Cells the floor model is learnt from and clutter may start in: floor, away from its border, not already masked.
  const notFloor = new Uint8Array(n);
  for (let i = 0; i < n; i++) notFloor[i] = floor[i] ? 0 : 1;
  const borderDistance = squaredDistanceToMask(notFloor, width, height);
  const band = Math.max(1, edgeBand * Math.max(width, height));
  const eligible = new Uint8Array(n);
  let eligibleCount = 0;
  let floorCount = 0;
  for (let i = 0; i < n; i++) {
    if (floor[i]) floorCount++;
    if (floor[i] && !knownCells[i] && borderDistance[i]! > band * band) {
      eligible[i] = 1;
      eligibleCount++;
    }
  }
  const empty: ClutterResult = { boxes: [], mask: new Uint8Array(image.width * image.height) };
  if (eligibleCount < 64) return empty;
  const cells = new Int32Array(eligibleCount);
  for (let i = 0, k = 0; i < n; i++) if (eligible[i]) cells[k++] = i;

  const look = floorFeatures(planes, 2, cells);
  const lighting = robustQuadraticSurface(look.shade, width, height, cells);
  const features = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    features[i * 4] = look.shade[i]! - lighting[i]!;
    features[i * 4 + 1] = look.warmth[i]!;
    features[i * 4 + 2] = look.tint[i]!;
    features[i * 4 + 3] = Math.log(look.texture[i]! + 0.005);
  }
  const model = floorModel(features, cells, width, height, clusterCount, minClusterShare, threshold);

  // Cells that stand out; blown-out highlights (sun on the floor) are light, whatever their colour.
  let candidate: Uint8Array = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!eligible[i]) continue;
    if (Math.max(planes.r[i]!, planes.g[i]!, planes.b[i]!) >= 0.97) continue;
    if (clusterDistance(model, features, i, ALL_FEATURES) > threshold) candidate[i] = 1;
  }
  candidate = openRound(candidate, width, height, lineRadius);
  candidate = closeMask(candidate, width, height, 1);
  for (let i = 0; i < n; i++) if (!floor[i] || knownCells[i]) candidate[i] = 0;

  const outside = new Uint8Array(n);
  for (let i = 0; i < n; i++) outside[i] = candidate[i] ? 0 : 1;
  const depth = squaredDistanceToMask(outside, width, height);
  const floorArea = Math.max(1, floorCount);
  const keep = new Uint8Array(n);
  const boxes: Box[] = [];
  for (const component of connectedComponents(candidate, width, height)) {
    const size = component.pixels.length;
    if (size < Math.max(12, minArea * floorArea) || size > maxShare * floorArea) continue;
    if (!component.pixels.some((p) => depth[p]! >= minRadius * minRadius)) continue;
    const invariant = Float32Array.from(component.pixels, (i) => clusterDistance(model, features, i, LIGHT_INVARIANT)).sort();
    if (invariant[Math.floor(invariant.length / 2)]! < lightingThreshold) continue;
    for (const p of component.pixels) keep[p] = 1;
    boxes.push({
      x: component.x * grid.scaleX,
      y: component.y * grid.scaleY,
      width: component.width * grid.scaleX,
      height: component.height * grid.scaleY,
    });
  }
  if (boxes.length === 0) return empty;
  const grown = dilateRound(keep, width, height, margin);
  return { boxes, mask: upsampleMask(grown, width, height, image.width, image.height) };
}

/**
 * The floor's appearance clusters. A floor's look is stationary — boards, tiles and their pattern repeat all over it —
 * while clutter is local: clusters found in too few parts of the floor (a heap of dark clothes and bags) are set aside,
 * then the model is refitted to the cells the kept clusters explain (clutter covering much of the floor would
 * otherwise widen the spreads until everything fits).
 */
function floorModel(
  features: Float32Array,
  cells: Int32Array,
  width: number,
  height: number,
  clusterCount: number,
  minClusterShare: number,
  threshold: number,
): FeatureClusters {
  let model = fitFeatureClusters(features, 4, cells, clusterCount + 2, minClusterShare / 3, MIN_SPREAD);
  // Blocks of a STATIONARITY_GRID × STATIONARITY_GRID tiling of the floor's bounding box.
  let minX = width, minY = height, maxX = 0, maxY = 0;
  for (const i of cells) {
    const x = i % width, y = (i - x) / width;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const blockOf = (i: number) => {
    const x = i % width, y = (i - x) / width;
    const bx = Math.min(STATIONARITY_GRID - 1, Math.floor(((x - minX) * STATIONARITY_GRID) / (maxX - minX + 1)));
    const by = Math.min(STATIONARITY_GRID - 1, Math.floor(((y - minY) * STATIONARITY_GRID) / (maxY - minY + 1)));
    return by * STATIONARITY_GRID + bx;
  };
  const blocks = STATIONARITY_GRID * STATIONARITY_GRID;
  const label = new Int32Array(cells.length);
  const perBlock = new Float64Array(blocks);
  const perCluster = new Float64Array(blocks * model.count);
  cells.forEach((i, k) => {
    const c = nearestCluster(model, features, i);
    label[k] = c;
    const b = blockOf(i);
    perBlock[b]! += 1;
    perCluster[c * blocks + b]! += 1;
  });
  let occupied = 0;
  const largest = Math.max(...perBlock);
  for (let b = 0; b < blocks; b++) if (perBlock[b]! >= 0.25 * largest) occupied++;
  const stationary: boolean[] = [];
  for (let c = 0; c < model.count; c++) {
    let present = 0;
    for (let b = 0; b < blocks; b++) if (perBlock[b]! >= 0.25 * largest && perCluster[c * blocks + b]! >= 0.05 * perBlock[b]!) present++;
    stationary.push(present >= MIN_PRESENCE * occupied);
  }
  const floorLike = cells.filter((_, k) => stationary[label[k]!]!);
  if (floorLike.length >= 64) model = fitFeatureClusters(features, 4, floorLike, clusterCount, minClusterShare, MIN_SPREAD);
  for (let round = 0; round < TRIM_ROUNDS; round++) {
    const inliers = cells.filter((i) => clusterDistance(model, features, i, ALL_FEATURES) <= threshold);
    if (inliers.length < 64) break;
    model = fitFeatureClusters(features, 4, inliers, clusterCount, minClusterShare, MIN_SPREAD);
  }
  return model;
}

/** Erosion then dilation by a disc: removes every part of the mask thinner than about 2·radius cells. */
function openRound(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  if (radius <= 0) return mask;
  const inverse = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) inverse[i] = mask[i] ? 0 : 1;
  const grownInverse = dilateRound(inverse, width, height, radius);
  const eroded = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) eroded[i] = grownInverse[i] ? 0 : 1;
  return dilateRound(eroded, width, height, radius);
}
