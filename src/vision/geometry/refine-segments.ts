import { sampleBilinear } from '../colour-planes.js';
import type { GreyPlane } from './lsd.js';
import { segmentLength, type LineSegment } from './segments.js';

export interface RefineOptions {
  /** How far across the segment the edge is looked for, in pixels. Default 2.5. */
  radius?: number;
  /** Largest change of direction accepted, in degrees. Default 3. */
  maxTurnDeg?: number;
}

/**
 * Snaps segments onto the image's edges: along each segment, the strongest gradient across it within `radius`
 * pixels (of the polarity most samples agree on) gives a sub-pixel edge point; a weighted total-least-squares line
 * through those points replaces the segment's line, and the endpoints are projected onto it. A network's segments
 * (M-LSD regresses endpoints on a 256² grid) become as precise as the edges they sit on; segments without a clear
 * edge under them are returned unchanged.
 */
export function refineSegments(grey: GreyPlane, segments: readonly LineSegment[], options: RefineOptions = {}): LineSegment[] {
  const radius = options.radius ?? 2.5;
  const maxTurn = ((options.maxTurnDeg ?? 3) * Math.PI) / 180;
  const { gx, gy } = sobel(grey);
  const { width, height } = grey;
  return segments.map((s) => {
    const length = segmentLength(s);
    if (length < 6) return s;
    const tx = (s.x1 - s.x0) / length;
    const ty = (s.y1 - s.y0) / length;
    const nx = -ty;
    const ny = tx;
    const count = Math.max(4, Math.round(length / 1.5));
    const points: { x: number; y: number; w: number; sign: number }[] = [];
    for (let k = 0; k < count; k++) {
      const t = 0.05 + (0.9 * (k + 0.5)) / count;
      const px = s.x0 + t * (s.x1 - s.x0);
      const py = s.y0 + t * (s.y1 - s.y0);
      let best = 0;
      let bestOffset = 0;
      const samples: number[] = [];
      for (let o = -radius; o <= radius + 1e-9; o += 0.5) {
        const qx = px + o * nx;
        const qy = py + o * ny;
        const g = sampleBilinear(gx, width, height, qx, qy) * nx + sampleBilinear(gy, width, height, qx, qy) * ny;
        samples.push(g);
        if (Math.abs(g) > Math.abs(best)) {
          best = g;
          bestOffset = o;
        }
      }
      if (best === 0) continue;
      // Sub-sample peak by a parabola through the neighbours.
      const index = Math.round((bestOffset + radius) / 0.5);
      const a = Math.abs(samples[index - 1] ?? 0);
      const b = Math.abs(samples[index]!);
      const c = Math.abs(samples[index + 1] ?? 0);
      const denominator = a - 2 * b + c;
      const shift = index > 0 && index < samples.length - 1 && denominator < 0 ? (0.5 * (a - c)) / denominator : 0;
      const offset = bestOffset + 0.5 * Math.max(-0.5, Math.min(0.5, shift));
      points.push({ x: px + offset * nx, y: py + offset * ny, w: Math.abs(best), sign: Math.sign(best) });
    }
    if (points.length < 4) return s;
    const positive = points.filter((p) => p.sign > 0).reduce((sum, p) => sum + p.w, 0);
    const negative = points.filter((p) => p.sign < 0).reduce((sum, p) => sum + p.w, 0);
    const sign = positive >= negative ? 1 : -1;
    const strongest = Math.max(...points.map((p) => p.w));
    const used = points.filter((p) => p.sign === sign && p.w >= 0.25 * strongest);
    if (used.length < Math.max(4, 0.4 * count)) return s;
    // Weighted total least squares.
    let sw = 0;
    let mx = 0;
    let my = 0;
    for (const p of used) {
      sw += p.w;
      mx += p.w * p.x;
      my += p.w * p.y;
    }
    mx /= sw;
    my /= sw;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const p of used) {
      const dx = p.x - mx;
      const dy = p.y - my;
      sxx += p.w * dx * dx;
      syy += p.w * dy * dy;
      sxy += p.w * dx * dy;
    }
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    let dx = Math.cos(angle);
    let dy = Math.sin(angle);
    if (dx * tx + dy * ty < 0) {
      dx = -dx;
      dy = -dy;
    }
    if (Math.acos(Math.min(1, dx * tx + dy * ty)) > maxTurn) return s;
    // Residual spread: a cloud rather than a line means no single edge.
    let residual = 0;
    for (const p of used) residual += p.w * ((p.x - mx) * -dy + (p.y - my) * dx) ** 2;
    if (Math.sqrt(residual / sw) > 1.2) return s;
    const project = (x: number, y: number): [number, number] => {
      const t = (x - mx) * dx + (y - my) * dy;
      return [mx + t * dx, my + t * dy];
    };
    const [x0, y0] = project(s.x0, s.y0);
    const [x1, y1] = project(s.x1, s.y1);
    return { x0, y0, x1, y1, score: s.score };
  });
}

function sobel(grey: GreyPlane): { gx: Float32Array; gy: Float32Array } {
  const { width, height, data } = grey;
  const gx = new Float32Array(width * height);
  const gy = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) {
      const l = Math.max(0, x - 1);
      const r = Math.min(width - 1, x + 1);
      gx[row + x] = (data[up + r]! + 2 * data[row + r]! + data[down + r]! - data[up + l]! - 2 * data[row + l]! - data[down + l]!) / 8;
      gy[row + x] = (data[down + l]! + 2 * data[down + x]! + data[down + r]! - data[up + l]! - 2 * data[up + x]! - data[up + r]!) / 8;
    }
  }
  return { gx, gy };
}

