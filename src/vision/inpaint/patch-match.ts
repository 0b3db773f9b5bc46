import { CHANNELS, type Level } from './level.js';
import { scaledSurface, type Surface } from './surfaces.js';
import { quantile } from '../robust-statistics.js';
import { dilateSquare } from '../mask-morphology.js';

/**
 * The nearest-neighbour field of one pyramid level: for every pixel whose patch overlaps the hole (a target), an
 * offset in its surface's plane coordinates. The patch around target p is copied from
 * fromPlane(toPlane(p + δ) + offset): a translation along the plane, seen through the camera. Plane offsets do not
 * depend on the image's resolution, so a field carries over to the next finer level as it is.
 */
export interface NearestNeighbourField {
  targets: Int32Array;
  offsetX: Float32Array;
  offsetY: Float32Array;
  /** Sum of squared RGB differences over the patch's in-image pixels; Infinity while the target has no valid source. */
  cost: Float32Array;
  /** Summed confidence of each target's in-image patch pixels (the cost's denominator). */
  support: Float32Array;
  /** The surface each target's offset is on: the plane its pixel lies on, or the image-plane fallback. */
  surface: Uint8Array;
}

export interface PatchMatchOptions {
  /** Patch half-size: patches are (2r+1)². */
  patchRadius: number;
  /** Weight of the scale change between target and source patches in the cost: 1 + w·|ln det J|. */
  scalePenalty: number;
  /** Largest area scale between a source patch and its target, either way. */
  maxScale: number;
  /**
   * Cost factor of a plain image-space copy for a pixel that lies on a known plane. Both compete, so a pixel the
   * layout put on the wrong plane still finds its match; above 1, the plane wins where the two are close.
   */
  planeBias: number;
  /**
   * Largest area magnification from a source patch to a target deeper than ownSurfaceDepth (1 / the smallest det
   * of the copy map's Jacobian); defaults to maxScale, which holds nearer the rim. A source enlarged into its target
   * (far floor copied to the near floor) comes out blurred; near the rim the match is held by the rim's pixels and
   * an enlarged copy may be the right one (a wall seen at a slant).
   */
  maxMagnification?: number;
  /**
   * Depth in level pixels (chessboard, from the hole's rim) beyond which a target on a known plane copies in image
   * space only from pixels of the same plane or of no known plane. Default Infinity (no such rule). Deep in a large
   * hole nothing from the rim steers the match, and a smooth guess there matches smooth pixels of another surface
   * (a ceiling, a plain wall above the wainscoting) better than its own surface's texture; near the rim, copies
   * across the layout's labels stay allowed, since the layout is often wrong there.
   */
  ownSurfaceDepth?: number;
  /**
   * Share of its rim's texture that a source must have to be copied to a target deeper than ownSurfaceDepth (see
   * textureFloors). Default 0 (no such rule).
   */
  rimTextureShare?: number;
}

/** The search state of one level: the level, its surfaces at the level's scale and where one may copy from. */
export class PatchMatchLevel {
  readonly field: NearestNeighbourField;
  private readonly toPlane: Float64Array;
  private readonly fromPlane: Float64Array;
  /** 1 where a whole patch centred here is known, in the image and allowed as a source. */
  private readonly sourceOk: Uint8Array;
  /** Source pixels of each surface group, for random restarts. */
  private readonly sourcesByGroup: Int32Array[];
  /** Pixel index → target index, −1 elsewhere. */
  private readonly targetOf: Int32Array;
  /** Groups whose targets may copy from any surface (the image-plane fallback). */
  private readonly anyGroup: number;
  /**
   * How much each pixel's current value is trusted: 1 outside the hole, falling by 1.3 per pixel of depth inside it
   * (Wexler et al. 2007), so matches are steered by the hole's rim rather than by the blurry guess in its middle.
   */
  private readonly confidence: Float32Array;
  /** Chessboard depth of each hole pixel (0 outside the hole). */
  private readonly depth: Uint16Array;
  /** Least texture (sum of the two feature channels) a source of each pixel must have; 0 for most pixels. */
  private readonly textureFloor: Float32Array;

  constructor(
    readonly level: Level,
    surfaces: readonly Surface[],
    /** Index of the surface that stands for "no known plane": it may copy from anywhere. */
    fallbackGroup: number,
    private readonly options: PatchMatchOptions,
    private readonly random: () => number,
  ) {
    const { width, height } = level;
    this.anyGroup = fallbackGroup;
    this.toPlane = new Float64Array(surfaces.length * 9);
    this.fromPlane = new Float64Array(surfaces.length * 9);
    surfaces.forEach((surface, g) => {
      const scaled = scaledSurface(surface, level.scale);
      this.toPlane.set(scaled.toPlane, g * 9);
      this.fromPlane.set(scaled.fromPlane, g * 9);
    });
    this.sourceOk = sourceMask(level, options.patchRadius);
    this.depth = holeDepth(level.hole, width, height);
    this.confidence = rimConfidence(level.hole, width, height);
    this.textureFloor = textureFloors(level, this.depth, options.ownSurfaceDepth ?? Infinity, options.rimTextureShare ?? 0, options.patchRadius);
    const lists: number[][] = surfaces.map(() => []);
    for (let i = 0; i < width * height; i++) if (this.sourceOk[i]) lists[level.group[i]!]?.push(i);
    const everywhere: number[] = [];
    for (let i = 0; i < width * height; i++) if (this.sourceOk[i]) everywhere.push(i);
    lists[fallbackGroup] = everywhere;
    this.sourcesByGroup = lists.map((list) => Int32Array.from(list));

    const targets = targetPixels(level, options.patchRadius);
    this.targetOf = new Int32Array(width * height).fill(-1);
    targets.forEach((p, t) => (this.targetOf[p] = t));
    this.field = {
      targets,
      offsetX: new Float32Array(targets.length),
      offsetY: new Float32Array(targets.length),
      cost: new Float32Array(targets.length).fill(Infinity),
      support: new Float32Array(targets.length),
      surface: new Uint8Array(targets.length).fill(fallbackGroup),
    };
    for (let t = 0; t < targets.length; t++) this.field.support[t] = patchSupport(targets[t]!, this.confidence, width, height, options.patchRadius);
  }

  /** Offsets every target tries on each pass, per surface (see dominantOffsets). */
  private dominant: Float32Array[] = [];

  useDominantOffsets(perSurface: Float32Array[]): void {
    this.dominant = perSurface;
  }

  /** Starts every target from the coarser level's offset at the same place, or from a random source. */
  initialise(coarser?: PatchMatchLevel): void {
    const { field, level } = this;
    for (let t = 0; t < field.targets.length; t++) {
      const p = field.targets[t]!;
      let placed = false;
      if (coarser) {
        const x = p % level.width;
        const y = (p - x) / level.width;
        const cx = Math.min(coarser.level.width - 1, x >> 1);
        const cy = Math.min(coarser.level.height - 1, y >> 1);
        const c = coarser.targetOf[cy * coarser.level.width + cx]!;
        if (c >= 0 && this.allows(t, coarser.field.surface[c]!)) {
          placed = this.consider(t, coarser.field.surface[c]!, coarser.field.offsetX[c]!, coarser.field.offsetY[c]!, true);
        }
      }
      for (let attempt = 0; !placed && attempt < 8; attempt++) placed = this.considerRandomSource(t, true);
      // Where the texture floor turns the first tries down, more tries; the last ones without it, so that every
      // target has a source (a hole pixel without one would keep the grey it came with).
      for (let attempt = 0; !placed && attempt < 64; attempt++) placed = this.considerRandomSource(t, true);
      for (let attempt = 0; !placed && attempt < 8; attempt++) placed = this.considerRandomSource(t, true, true);
    }
  }

  /** One PatchMatch pass: propagation from the two already-visited neighbours, then a shrinking random search. */
  search(pass: number): void {
    const { field, level } = this;
    const { width } = level;
    const forward = pass % 2 === 0;
    const count = field.targets.length;
    const radius0 = Math.max(level.width, level.height) / 2;
    for (let k = 0; k < count; k++) {
      const t = forward ? k : count - 1 - k;
      const p = field.targets[t]!;
      const x = p % width;
      const step = forward ? -1 : 1;
      const horizontal = x + step >= 0 && x + step < width ? this.targetOf[p + step]! : -1;
      const vertical = this.targetOf[p + step * width] ?? -1;
      for (const n of [horizontal, vertical]) {
        if (n >= 0 && field.cost[n]! < Infinity && this.allows(t, field.surface[n]!)) {
          this.consider(t, field.surface[n]!, field.offsetX[n]!, field.offsetY[n]!, false);
        }
      }
      const home = level.group[p]!;
      for (const g of home === this.anyGroup ? [home] : [home, this.anyGroup]) {
        const offsets = this.dominant[g];
        if (!offsets) continue;
        for (let k = 0; k < offsets.length; k += 2) this.consider(t, g, offsets[k]!, offsets[k + 1]!, false);
      }
      if (field.cost[t] === Infinity) {
        this.considerRandomSource(t, false);
        continue;
      }
      const [sx, sy] = this.sourceOf(t, p);
      // The same source seen through the other surface: how a target switches between plane and image copies.
      if (home !== this.anyGroup) this.considerSourceAt(t, field.surface[t] === home ? this.anyGroup : home, sx, sy);
      const surface = field.surface[t]!;
      for (let radius = radius0; radius >= 1; radius /= 2) {
        const cx = sx + radius * (2 * this.random() - 1);
        const cy = sy + radius * (2 * this.random() - 1);
        this.considerSourceAt(t, surface, cx, cy);
      }
    }
  }

  /**
   * Replaces every hole pixel with the weighted mean of what the patches covering it would put there (Wexler et al.
   * 2007): weights fall with the patch's cost, scaled by the 75th percentile of the costs. With `best`, see voteBest.
   */
  vote(best = false): void {
    if (best) {
      this.voteBest();
      return;
    }
    const { field, level } = this;
    const { width, height, colour, hole } = level;
    const r = this.options.patchRadius;
    const sums = new Float32Array(width * height * CHANNELS);
    const weights = new Float32Array(width * height);
    // No finite cost yet gives NaN, and so the floor of 1.
    const variance = Math.max(1, quantile(meanCosts(field), 0.75) || 0);
    const jacobian = new Float64Array(4);
    for (let t = 0; t < field.targets.length; t++) {
      if (!(field.cost[t]! < Infinity)) continue;
      const p = field.targets[t]!;
      const px = p % width;
      const py = (p - px) / width;
      const meanCost = field.cost[t]! / (CHANNELS * field.support[t]!);
      const weight = this.confidence[p]! * Math.exp(-meanCost / (2 * variance));
      const [sx, sy] = this.sourceOf(t, p);
      this.jacobianAt(field.surface[t]!, px + 0.5, py + 0.5, field.offsetX[t]!, field.offsetY[t]!, jacobian);
      for (let dy = -r; dy <= r; dy++) {
        const qy = py + dy;
        if (qy < 0 || qy >= height) continue;
        for (let dx = -r; dx <= r; dx++) {
          const qx = px + dx;
          if (qx < 0 || qx >= width) continue;
          const q = qy * width + qx;
          if (!hole[q]) continue;
          const ux = sx + jacobian[0]! * dx + jacobian[1]! * dy;
          const uy = sy + jacobian[2]! * dx + jacobian[3]! * dy;
          addBilinear(colour, CHANNELS, width, height, ux, uy, weight, sums, CHANNELS * q);
          weights[q]! += weight;
        }
      }
    }
    for (let q = 0; q < width * height; q++) {
      const w = weights[q]!;
      if (!hole[q] || w <= 0) continue;
      for (let c = 0; c < CHANNELS; c++) colour[CHANNELS * q + c] = sums[CHANNELS * q + c]! / w;
    }
  }

  /**
   * Every hole pixel takes what its own patch (the target centred on it) copies to its centre: no averaging of
   * overlapping candidates, so the estimate keeps the sources' sharpness.
   */
  voteBest(): void {
    const { field, level } = this;
    const { width, height, colour, hole } = level;
    const sums = new Float32Array(CHANNELS);
    for (let t = 0; t < field.targets.length; t++) {
      const p = field.targets[t]!;
      if (!hole[p] || !(field.cost[t]! < Infinity)) continue;
      const [sx, sy] = this.sourceOf(t, p);
      sums.fill(0);
      addBilinear(colour, CHANNELS, width, height, sx, sy, 1, sums, 0);
      colour.set(sums, CHANNELS * p);
    }
  }

  /** The level-pixel position target t copies its centre from. */
  sourceOf(t: number, p = this.field.targets[t]!): [number, number] {
    const x = p % this.level.width;
    const y = (p - x) / this.level.width;
    return this.mapThroughPlane(this.field.surface[t]!, x + 0.5, y + 0.5, this.field.offsetX[t]!, this.field.offsetY[t]!);
  }

  /** fromPlane(toPlane(x, y) + offset) for a group, in continuous level pixels. */
  mapThroughPlane(group: number, x: number, y: number, ox: number, oy: number): [number, number] {
    const h = this.toPlane;
    const k = group * 9;
    const w0 = h[k + 6]! * x + h[k + 7]! * y + h[k + 8]!;
    const u = (h[k]! * x + h[k + 1]! * y + h[k + 2]!) / w0 + ox;
    const v = (h[k + 3]! * x + h[k + 4]! * y + h[k + 5]!) / w0 + oy;
    const f = this.fromPlane;
    const w1 = f[k + 6]! * u + f[k + 7]! * v + f[k + 8]!;
    return [(f[k]! * u + f[k + 1]! * v + f[k + 2]!) / w1, (f[k + 3]! * u + f[k + 4]! * v + f[k + 5]!) / w1];
  }

  /** The plane offset that copies target t's centre from level position (x, y). */
  private offsetTo(group: number, px: number, py: number, x: number, y: number): [number, number] {
    const h = this.toPlane;
    const k = group * 9;
    const wp = h[k + 6]! * px + h[k + 7]! * py + h[k + 8]!;
    const ws = h[k + 6]! * x + h[k + 7]! * y + h[k + 8]!;
    return [
      (h[k]! * x + h[k + 1]! * y + h[k + 2]!) / ws - (h[k]! * px + h[k + 1]! * py + h[k + 2]!) / wp,
      (h[k + 3]! * x + h[k + 4]! * y + h[k + 5]!) / ws - (h[k + 3]! * px + h[k + 4]! * py + h[k + 5]!) / wp,
    ];
  }

  /** Derivatives of the copy map at (x, y): how a step in the target patch moves in the source, row-major 2×2. */
  private jacobianAt(group: number, x: number, y: number, ox: number, oy: number, out: Float64Array): void {
    const [x0, y0] = this.mapThroughPlane(group, x, y, ox, oy);
    const [x1, y1] = this.mapThroughPlane(group, x + 1, y, ox, oy);
    const [x2, y2] = this.mapThroughPlane(group, x, y + 1, ox, oy);
    out[0] = x1 - x0;
    out[1] = x2 - x0;
    out[2] = y1 - y0;
    out[3] = y2 - y0;
  }

  /** Whether target t may copy through surface g: its own plane, or the image-plane fallback. */
  private allows(t: number, g: number): boolean {
    return g === this.anyGroup || g === this.level.group[this.field.targets[t]!];
  }

  private considerRandomSource(t: number, force: boolean, anyTexture = false): boolean {
    const p = this.field.targets[t]!;
    let g = this.level.group[p]!;
    if ((this.sourcesByGroup[g]?.length ?? 0) === 0) g = this.anyGroup;
    const list = this.sourcesByGroup[g]!;
    if (list.length === 0) return false;
    const s = list[Math.floor(this.random() * list.length)]!;
    const x = s % this.level.width;
    const y = (s - x) / this.level.width;
    return this.considerSourceAt(t, g, x + 0.5, y + 0.5, force, anyTexture);
  }

  private considerSourceAt(t: number, g: number, x: number, y: number, force = false, anyTexture = false): boolean {
    const p = this.field.targets[t]!;
    const px = p % this.level.width;
    const py = (p - px) / this.level.width;
    const [ox, oy] = this.offsetTo(g, px + 0.5, py + 0.5, x, y);
    return this.consider(t, g, ox, oy, force, anyTexture);
  }

  private readonly scratchJacobian = new Float64Array(4);

  /**
   * Takes the offset on surface g for target t when its patch matches better than the current one (or always, with
   * force). `anyTexture` lifts the texture floor (textureFloors), for a last-resort start.
   */
  private consider(t: number, g: number, offsetX: number, offsetY: number, force: boolean, anyTexture = false): boolean {
    const { level, field, options } = this;
    const { width, height, colour, group } = level;
    const confidence = this.confidence;
    const p = field.targets[t]!;
    const px = p % width;
    const py = (p - px) / width;
    const home = group[p]!;
    const [fx, fy] = this.mapThroughPlane(g, px + 0.5, py + 0.5, offsetX, offsetY);
    if (!(fx >= 0 && fy >= 0 && fx < width && fy < height)) return false;
    // The patch centre copies from a whole pixel: where the plane is near the image plane (walls seen square on)
    // the whole patch then lands on pixels, and thin lines are not blurred by resampling.
    const sx = Math.floor(fx) + 0.5;
    const sy = Math.floor(fy) + 0.5;
    const [ox, oy] = this.offsetTo(g, px + 0.5, py + 0.5, sx, sy);
    const s = Math.floor(sy) * width + Math.floor(sx);
    if (!this.sourceOk[s] || (g !== this.anyGroup && group[s] !== g)) return false;
    if (g === this.anyGroup && home !== this.anyGroup && group[s] !== home && group[s] !== this.anyGroup && this.depth[p]! > (options.ownSurfaceDepth ?? Infinity)) return false;
    if (!anyTexture && colour[CHANNELS * s + 3]! + colour[CHANNELS * s + 4]! < this.textureFloor[p]!) return false;
    const bias = g === this.anyGroup && home !== this.anyGroup ? options.planeBias : 1;
    const j = this.scratchJacobian;
    this.jacobianAt(g, px + 0.5, py + 0.5, ox, oy, j);
    const det = Math.abs(j[0]! * j[3]! - j[1]! * j[2]!);
    const deep = this.depth[p]! > (options.ownSurfaceDepth ?? Infinity);
    if (!(det > 1 / (deep ? (options.maxMagnification ?? options.maxScale) : options.maxScale) && det < options.maxScale)) return false;
    const penalty = bias * (1 + options.scalePenalty * Math.abs(Math.log(det)));
    const best = force ? Infinity : field.cost[t]! / penalty;
    const r = options.patchRadius;
    let sum = 0;
    for (let dy = -r; dy <= r && sum < best; dy++) {
      const qy = py + dy;
      if (qy < 0 || qy >= height) continue;
      for (let dx = -r; dx <= r; dx++) {
        const qx = px + dx;
        if (qx < 0 || qx >= width) continue;
        const ux = Math.floor(sx + j[0]! * dx + j[1]! * dy);
        const uy = Math.floor(sy + j[2]! * dx + j[3]! * dy);
        if (ux < 0 || uy < 0 || ux >= width || uy >= height) return false;
        const q = qy * width + qx;
        const a = CHANNELS * q;
        const b = CHANNELS * (uy * width + ux);
        const d0 = colour[a]! - colour[b]!;
        const d1 = colour[a + 1]! - colour[b + 1]!;
        const d2 = colour[a + 2]! - colour[b + 2]!;
        const d3 = colour[a + 3]! - colour[b + 3]!;
        const d4 = colour[a + 4]! - colour[b + 4]!;
        sum += confidence[q]! * (d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3 + d4 * d4);
      }
    }
    const cost = sum * penalty;
    if (!force && !(cost < field.cost[t]!)) return false;
    field.offsetX[t] = ox;
    field.offsetY[t] = oy;
    field.cost[t] = cost;
    field.surface[t] = g;
    return true;
  }
}

/** Pixels whose (2r+1)² patch lies in the image and holds no hole and no excluded pixel. */
export function sourceMask(level: Level, r: number): Uint8Array {
  const { width, height, hole, excluded } = level;
  const blocked = new Uint8Array(width * height);
  for (let i = 0; i < blocked.length; i++) blocked[i] = hole[i] || excluded[i] ? 1 : 0;
  const near = dilateSquare(blocked, width, height, r);
  const ok = new Uint8Array(width * height);
  for (let y = r; y < height - r; y++) {
    for (let x = r; x < width - r; x++) ok[y * width + x] = near[y * width + x] ? 0 : 1;
  }
  return ok;
}

/**
 * Per pixel, the least texture a source copied to it must have: for hole pixels deeper than `depthFrom`, `share` of
 * the lower quartile of the texture (the two feature channels) on the known ring, 2r wide, around their connected
 * part of the hole; 0 elsewhere. A blurred guess deep in a large hole matches smooth pixels (a ceiling, a plain band)
 * better than the surface's own texture; when nearly all of the hole's rim is textured, its middle may not copy from
 * what is much smoother. The lower quartile keeps the rule out of holes whose rim is partly smooth (a rug's edge on
 * a plain floor), where smooth sources are right.
 */
function textureFloors(level: Level, depth: Uint16Array, depthFrom: number, share: number, r: number): Float32Array {
  const { width, height, hole, excluded, colour } = level;
  const floors = new Float32Array(width * height);
  if (!(share > 0) || !Number.isFinite(depthFrom)) return floors;
  // Connected parts of the hole (8-neighbours), then each known pixel of the ring takes the part it is nearest to
  // in a breadth-first grow over 2r steps.
  const part = new Int32Array(width * height).fill(-1);
  let parts = 0;
  const queue: number[] = [];
  for (let start = 0; start < hole.length; start++) {
    if (!hole[start] || part[start]! >= 0) continue;
    part[start] = parts;
    queue.length = 0;
    queue.push(start);
    for (let head = 0; head < queue.length; head++) {
      const p = queue[head]!;
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (hole[q] && part[q]! < 0) {
            part[q] = parts;
            queue.push(q);
          }
        }
      }
    }
    parts++;
  }
  const ring: number[][] = Array.from({ length: parts }, () => []);
  let front: number[] = [];
  for (let p = 0; p < hole.length; p++) if (hole[p]) front.push(p);
  const reached = Uint8Array.from(hole);
  for (let step = 0; step < 2 * r && front.length > 0; step++) {
    const next: number[] = [];
    for (const p of front) {
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (reached[q]) continue;
          reached[q] = 1;
          part[q] = part[p]!;
          if (!excluded[q]) ring[part[p]!]!.push(colour[CHANNELS * q + 3]! + colour[CHANNELS * q + 4]!);
          next.push(q);
        }
      }
    }
    front = next;
  }
  const floorOf = ring.map((values) => (values.length > 0 ? share * (quantile(Float32Array.from(values), 0.25) || 0) : 0));
  for (let p = 0; p < hole.length; p++) if (hole[p] && depth[p]! > depthFrom) floors[p] = floorOf[part[p]!]!;
  return floors;
}

/** 1 outside the hole, 1.3^−d inside it at chessboard distance d from the nearest known pixel. */
function rimConfidence(hole: Uint8Array, width: number, height: number): Float32Array {
  const depth = holeDepth(hole, width, height);
  const confidence = new Float32Array(width * height);
  for (let i = 0; i < depth.length; i++) confidence[i] = Math.pow(1.3, -depth[i]!);
  return confidence;
}

/** Chessboard distance of each hole pixel to the nearest known pixel (0 outside the hole; the hole's size if none is known). */
export function holeDepth(hole: Uint8Array, width: number, height: number): Uint16Array {
  // Two-pass chessboard distance transform (Rosenfeld and Pfaltz): forward from the top-left neighbours, backward
  // from the bottom-right ones.
  const far = Math.min(65535, width + height);
  const depth = new Uint16Array(width * height);
  for (let i = 0; i < depth.length; i++) depth[i] = hole[i] ? far : 0;
  const relax = (i: number, x: number, y: number, dx: number, dy: number) => {
    const nx = x + dx;
    const ny = y + dy;
    if (nx < 0 || ny < 0 || nx >= width || ny >= height) return;
    const through = depth[ny * width + nx]! + 1;
    if (through < depth[i]!) depth[i] = through;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!depth[i]) continue;
      relax(i, x, y, -1, 0);
      relax(i, x, y, -1, -1);
      relax(i, x, y, 0, -1);
      relax(i, x, y, 1, -1);
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!depth[i]) continue;
      relax(i, x, y, 1, 0);
      relax(i, x, y, 1, 1);
      relax(i, x, y, 0, 1);
      relax(i, x, y, -1, 1);
    }
  }
  // With no known pixel at all, every pixel keeps `far`: the whole image is as deep as it gets.
  return depth;
}

/** Pixels whose patch overlaps the hole, in raster order. */
function targetPixels(level: Level, r: number): Int32Array {
  const near = dilateSquare(level.hole, level.width, level.height, r);
  const out: number[] = [];
  for (let i = 0; i < near.length; i++) if (near[i]) out.push(i);
  return Int32Array.from(out);
}

function patchSupport(p: number, confidence: Float32Array, width: number, height: number, r: number): number {
  const x = p % width;
  const y = (p - x) / width;
  let sum = 0;
  for (let qy = Math.max(0, y - r); qy <= Math.min(height - 1, y + r); qy++) {
    for (let qx = Math.max(0, x - r); qx <= Math.min(width - 1, x + r); qx++) sum += confidence[qy * width + qx]!;
  }
  return sum;
}

/** Adds weight × the bilinear sample at continuous (x, y) of an interleaved image into sums[at…at+channels−1]. */
export function addBilinear(
  colour: Float32Array | Uint8Array,
  channels: number,
  width: number,
  height: number,
  x: number,
  y: number,
  weight: number,
  sums: Float32Array,
  at: number,
): void {
  const fx = Math.min(width - 1, Math.max(0, x - 0.5));
  const fy = Math.min(height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const tx = fx - x0;
  const ty = fy - y0;
  const w00 = weight * (1 - tx) * (1 - ty);
  const w01 = weight * tx * (1 - ty);
  const w10 = weight * (1 - tx) * ty;
  const w11 = weight * tx * ty;
  const a = channels * (y0 * width + x0);
  const b = channels * (y0 * width + x1);
  const c = channels * (y1 * width + x0);
  const d = channels * (y1 * width + x1);
  for (let k = 0; k < channels; k++) {
    sums[at + k]! += w00 * colour[a + k]! + w01 * colour[b + k]! + w10 * colour[c + k]! + w11 * colour[d + k]!;
  }
}

function meanCosts(field: NearestNeighbourField): Float32Array {
  const out: number[] = [];
  for (let t = 0; t < field.targets.length; t++) {
    if (field.cost[t]! < Infinity) out.push(field.cost[t]! / (CHANNELS * field.support[t]!));
  }
  return Float32Array.from(out);
}

