import { CHANNELS, type Level } from './level.js';
import { sourceMask } from './patch-match.js';
import { scaledSurface, type Surface } from './surfaces.js';

export interface DominantOffsetOptions {
  /** Patch half-size of the self-matching. Default 2. */
  patchRadius?: number;
  /** Least shift, in level pixels, between a patch and its match (a patch always matches itself). Default 6. */
  minShift?: number;
  /** Offsets kept per surface. Default 8. */
  count?: number;
  /** PatchMatch passes of the self-matching. Default 4. */
  passes?: number;
}

/**
 * The offsets by which the known part of each surface repeats itself most often (He and Sun 2012, "Statistics of
 * patch offsets"): every known patch is matched to its most similar patch elsewhere, and the peaks of the histogram
 * of those offsets, measured in the surface's plane coordinates, are the repetitions of its texture: the spacing of
 * floorboards, tiles or skirting seen along the plane. Tried as candidates for every hole patch, they let a fill
 * continue thin regular lines that averaging alone would drop. Returned per surface as [ox0, oy0, ox1, oy1, …].
 */
export function dominantOffsets(
  level: Level,
  surfaces: readonly Surface[],
  fallback: number,
  random: () => number,
  options: DominantOffsetOptions = {},
): Float32Array[] {
  const r = options.patchRadius ?? 2;
  const minShift = options.minShift ?? 6;
  const count = options.count ?? 8;
  const { width, height, colour } = level;
  const ok = sourceMask(level, r);
  const pixels: number[] = [];
  for (let i = 0; i < ok.length; i++) if (ok[i]) pixels.push(i);
  if (pixels.length < 16) return surfaces.map(() => new Float32Array(0));

  // Self nearest neighbours in image space: offsets dx, dy with max(|dx|, |dy|) ≥ minShift.
  const dx = new Int16Array(width * height);
  const dy = new Int16Array(width * height);
  const cost = new Float32Array(width * height).fill(Infinity);
  const distance = (p: number, ox: number, oy: number, best: number): number => {
    if (Math.max(Math.abs(ox), Math.abs(oy)) < minShift) return Infinity;
    const x = p % width;
    const y = (p - x) / width;
    const qx = x + ox;
    const qy = y + oy;
    if (qx < 0 || qy < 0 || qx >= width || qy >= height || !ok[qy * width + qx]) return Infinity;
    let sum = 0;
    for (let j = -r; j <= r && sum < best; j++) {
      for (let i = -r; i <= r; i++) {
        const a = CHANNELS * ((y + j) * width + x + i);
        const b = CHANNELS * ((qy + j) * width + qx + i);
        const d0 = colour[a]! - colour[b]!;
        const d1 = colour[a + 1]! - colour[b + 1]!;
        const d2 = colour[a + 2]! - colour[b + 2]!;
        sum += d0 * d0 + d1 * d1 + d2 * d2;
      }
    }
    return sum;
  };
  const consider = (p: number, ox: number, oy: number) => {
    const d = distance(p, ox, oy, cost[p]!);
    if (d < cost[p]!) {
      cost[p] = d;
      dx[p] = ox;
      dy[p] = oy;
    }
  };
  for (const p of pixels) {
    for (let attempt = 0; attempt < 4 && cost[p] === Infinity; attempt++) {
      const q = pixels[Math.floor(random() * pixels.length)]!;
      consider(p, (q % width) - (p % width), Math.floor(q / width) - Math.floor(p / width));
    }
  }
  const passes = options.passes ?? 4;
  for (let pass = 0; pass < passes; pass++) {
    const step = pass % 2 === 0 ? 1 : -1;
    for (let k = 0; k < pixels.length; k++) {
      const p = pixels[step > 0 ? k : pixels.length - 1 - k]!;
      const x = p % width;
      const left = p - step;
      const up = p - step * width;
      if (x - step >= 0 && x - step < width && cost[left]! < Infinity) consider(p, dx[left]!, dy[left]!);
      if (up >= 0 && up < width * height && cost[up]! < Infinity) consider(p, dx[up]!, dy[up]!);
      for (let radius = Math.max(width, height) / 2; radius >= 1; radius /= 2) {
        consider(p, Math.round(dx[p]! + radius * (2 * random() - 1)), Math.round(dy[p]! + radius * (2 * random() - 1)));
      }
    }
  }

  return surfaces.map((surface, g) => {
    const scaled = scaledSurface(surface, level.scale);
    const h = scaled.toPlane;
    const toPlane = (x: number, y: number): [number, number] => {
      const w = h[6] * x + h[7] * y + h[8];
      return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
    };
    const offsets: [number, number][] = [];
    const steps: number[] = [];
    for (const p of pixels) {
      if (!(cost[p]! < Infinity)) continue;
      const q = p + dy[p]! * width + dx[p]!;
      if (g !== fallback && (level.group[p] !== g || level.group[q] !== g)) continue;
      const x = (p % width) + 0.5;
      const y = Math.floor(p / width) + 0.5;
      const from = toPlane(x, y);
      const to = toPlane(x + dx[p]!, y + dy[p]!);
      const side = toPlane(x + 1, y);
      offsets.push([to[0] - from[0], to[1] - from[1]]);
      steps.push(Math.hypot(side[0] - from[0], side[1] - from[1]));
    }
    if (offsets.length < 16) return new Float32Array(0);
    // Bins one typical pixel wide in plane units.
    steps.sort((a, b) => a - b);
    const bin = steps[steps.length >> 1]! || 1;
    const bins = new Map<string, { n: number; sx: number; sy: number; bx: number; by: number }>();
    for (const [ox, oy] of offsets) {
      const bx = Math.round(ox / bin);
      const by = Math.round(oy / bin);
      const key = `${bx},${by}`;
      const entry = bins.get(key) ?? { n: 0, sx: 0, sy: 0, bx, by };
      entry.n++;
      entry.sx += ox;
      entry.sy += oy;
      bins.set(key, entry);
    }
    const peaks = [...bins.values()].sort((a, b) => b.n - a.n);
    const chosen: typeof peaks = [];
    for (const peak of peaks) {
      if (chosen.length >= count || peak.n < 3) break;
      if (chosen.some((c) => Math.abs(c.bx - peak.bx) <= 2 && Math.abs(c.by - peak.by) <= 2)) continue;
      chosen.push(peak);
    }
    return Float32Array.from(chosen.flatMap((c) => [c.sx / c.n, c.sy / c.n]));
  });
}
