import type { RawImage } from '../raw-image.js';
import { detectSegmentsLsd } from '../geometry/lsd.js';
import type { LineSegment } from '../geometry/segments.js';
import { dilateSquare, maskBounds } from '../mask-morphology.js';

/**
 * Straight lines that cross a hole, carried through it before the exemplar fill (structure propagation in the manner
 * of Sun et al. 2005, for straight lines only). A line counts as crossing when a straight segment of the known
 * image ends at the hole's rim and another, on the same line, starts at the rim on the far side: a skirting's top,
 * a cornice, a door's jamb, a board seam. The band of pixels along the line inside the hole is copied along the line
 * itself, each half from the segment on its own side (mirrored at the rim, so the pixel just inside takes the one
 * just outside, and repeated where the half is longer than the segment), so the edge and its profile across stay
 * where they were; the exemplar fill then fills the rest of the hole around the bands. Only known pixels that may
 * be copied are sources; a line whose crossing passes over an excluded pixel is left to the fill. A line nearly
 * tangent to the hole counts too, and so does one whose far side is too short for a segment when the pixels just past
 * the far rim show its edge (see crossingLines).
 *
 * Deep in a large hole the patch search has nothing from the rim to steer it, and a line that crossed the hole
 * broke there (bench:declutter part L: edge continuity 0.26 against ShiftMap's 0.57).
 */
export interface LineStructureOptions {
  /** Half-width of the band copied along a line, in working pixels. Default 3.5. */
  halfWidth?: number;
  /** Least length of a segment outside the hole, working pixels. Default 16. */
  minLength?: number;
  /**
   * Largest gap between a segment's end and the hole's rim, working pixels, unless the line runs within 3 px of the
   * rim all the way (a line nearly tangent to the hole). Default 6.
   */
  maxGap?: number;
  /**
   * Largest angle between a segment and the line that joins it to its partner across the hole, degrees, beyond what
   * the segment's length leaves uncertain (atan(2 px / length)). Default 1.
   */
  maxAngleDeg?: number;
}

export interface LineStructure {
  /** The photo with the bands filled (the input itself when no line crosses). */
  image: RawImage;
  /** The hole less the band pixels that were filled. */
  hole: Uint8Array;
  /** Per photo pixel of a band, where it was copied from (photo pixels, NaN elsewhere). */
  sourceX: Float32Array;
  sourceY: Float32Array;
  lines: number;
}

interface Line {
  /** Rim-side end of the first segment, and the line's unit direction into the hole. */
  px: number;
  py: number;
  ux: number;
  uy: number;
  /** Length from P to the far segment's rim-side end (a line known on one side: to its first pixel past the far rim). */
  length: number;
  /** Lengths of the two segments outside the hole, or of the known run past the far rim (what each half may copy from). */
  nearLength: number;
  farLength: number;
}

/**
 * Finds the lines crossing the hole on `small` (the photo at the working size, `scale` photo pixels per working
 * pixel; `smallHole` and `smallBlocked` at that size) and fills their bands in a copy of the full-size `image`.
 */
export function continueLines(
  image: RawImage,
  hole: Uint8Array,
  excluded: Uint8Array | undefined,
  small: RawImage,
  smallHole: Uint8Array,
  smallBlocked: Uint8Array,
  options: LineStructureOptions = {},
): LineStructure {
  const lines = crossingLines(small, smallHole, smallBlocked, options);
  const { width, height } = image;
  const sourceX = new Float32Array(width * height).fill(Number.NaN);
  const sourceY = new Float32Array(width * height).fill(Number.NaN);
  if (lines.length === 0) return { image, hole, sourceX, sourceY, lines: 0 };
  const scale = image.width / small.width;
  const halfWidth = options.halfWidth ?? 3.5;
  const margin = 1;
  const nearest = new Float32Array(width * height).fill(Infinity);
  const data = Uint8Array.from(image.data);
  for (const line of lines) {
    const { px, py, ux, uy, length } = line;
    const nx = -uy;
    const ny = ux;
    // The band's bounding box at full size.
    const ends = [
      [px - nx * halfWidth, py - ny * halfWidth],
      [px + nx * halfWidth, py + ny * halfWidth],
      [px + ux * length - nx * halfWidth, py + uy * length - ny * halfWidth],
      [px + ux * length + nx * halfWidth, py + uy * length + ny * halfWidth],
    ];
    const x0 = Math.max(0, Math.floor(Math.min(...ends.map((e) => e[0]!)) * scale) - 1);
    const x1 = Math.min(width, Math.ceil(Math.max(...ends.map((e) => e[0]!)) * scale) + 1);
    const y0 = Math.max(0, Math.floor(Math.min(...ends.map((e) => e[1]!)) * scale) - 1);
    const y1 = Math.min(height, Math.ceil(Math.max(...ends.map((e) => e[1]!)) * scale) + 1);
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        if (!hole[i]) continue;
        const wx = (x + 0.5) / scale - px;
        const wy = (y + 0.5) / scale - py;
        const t = wx * ux + wy * uy;
        const d = wx * nx + wy * ny;
        if (Math.abs(d) > halfWidth || t <= 0 || t >= length || !(Math.abs(d) < nearest[i]!)) continue;
        // Each half copies from its own side's segment, repeating it where the half is longer.
        const along = t <= length / 2 ? -margin - (t % line.nearLength) : length + margin + ((length - t) % line.farLength);
        const sx = Math.floor((px + ux * along + nx * d) * scale);
        const sy = Math.floor((py + uy * along + ny * d) * scale);
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        const s = sy * width + sx;
        if (hole[s] || excluded?.[s]) continue;
        nearest[i] = Math.abs(d);
        data[3 * i] = image.data[3 * s]!;
        data[3 * i + 1] = image.data[3 * s + 1]!;
        data[3 * i + 2] = image.data[3 * s + 2]!;
        sourceX[i] = sx + 0.5;
        sourceY[i] = sy + 0.5;
      }
    }
  }
  const reduced = Uint8Array.from(hole);
  for (let i = 0; i < reduced.length; i++) if (nearest[i]! < Infinity) reduced[i] = 0;
  return { image: { ...image, data }, hole: reduced, sourceX, sourceY, lines: lines.length };
}

/** The lines that cross the hole, in working pixels. */
export function crossingLines(small: RawImage, hole: Uint8Array, blocked: Uint8Array, options: LineStructureOptions = {}): Line[] {
  const { width, height } = small;
  const minLength = options.minLength ?? 16;
  const maxGap = options.maxGap ?? 6;
  const maxAngle = ((options.maxAngleDeg ?? 1) * Math.PI) / 180;
  // Only around the hole: its bounding box and half its size again on every side.
  const bounds = maskBounds(hole, width, height);
  if (!bounds) return [];
  const { x0: bx0, y0: by0, x1: bx1, y1: by1 } = bounds;
  const reach = Math.max(24, Math.ceil(Math.max(bx1 - bx0, by1 - by0) / 2));
  const cx0 = Math.max(0, bx0 - reach);
  const cy0 = Math.max(0, by0 - reach);
  const cw = Math.min(width, bx1 + reach + 1) - cx0;
  const ch = Math.min(height, by1 + reach + 1) - cy0;
  const luma = new Float32Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = 3 * ((cy0 + y) * width + cx0 + x);
      luma[y * cw + x] = 0.299 * small.data[i]! + 0.587 * small.data[i + 1]! + 0.114 * small.data[i + 2]!;
    }
  }
  // A segment's part that keeps 2 pixels clear of the hole and of what may not be copied: the hole's own outline
  // (a grey silhouette, an object's edge) is no line of the room.
  const near = dilateSquare(blocked, width, height, 2);
  // Within 3 pixels of the hole: the 2 cut off the segments, and one for the rounding of a sloping line.
  const rim = dilateSquare(hole, width, height, 3);
  const inImage = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height;
  const at = (mask: Uint8Array, x: number, y: number) => mask[Math.floor(y) * width + Math.floor(x)]!;
  const segments: LineSegment[] = [];
  for (const raw of detectSegmentsLsd({ data: luma, width: cw, height: ch })) {
    const s = { ...raw, x0: raw.x0 + cx0, y0: raw.y0 + cy0, x1: raw.x1 + cx0, y1: raw.y1 + cy0 };
    const length = Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
    if (length < minLength) continue;
    // The longest run of samples clear of the hole.
    const steps = Math.ceil(length);
    let best: [number, number] = [0, -1];
    let start = -1;
    for (let k = 0; k <= steps + 1; k++) {
      const f = k / steps;
      const x = s.x0 + (s.x1 - s.x0) * f;
      const y = s.y0 + (s.y1 - s.y0) * f;
      const clear = k <= steps && inImage(x, y) && !at(near, x, y);
      if (clear && start < 0) start = k;
      if (!clear && start >= 0) {
        if (k - 1 - start > best[1] - best[0]) best = [start, k - 1];
        start = -1;
      }
    }
    if ((best[1] - best[0]) * (length / steps) < minLength) continue;
    const f0 = best[0] / steps;
    const f1 = best[1] / steps;
    segments.push({ ...s, x0: s.x0 + (s.x1 - s.x0) * f0, y0: s.y0 + (s.y1 - s.y0) * f0, x1: s.x0 + (s.x1 - s.x0) * f1, y1: s.y0 + (s.y1 - s.y0) * f1 });
  }

  // Each end of a segment that reaches the hole within maxGap: where it enters, and where its line leaves the hole.
  interface End {
    segment: number;
    x: number;
    y: number;
    ux: number;
    uy: number;
    length: number;
    /** Where the line enters the hole and where it leaves it, from the end along the direction. */
    entry: number;
    exit: number;
  }
  const ends: End[] = [];
  segments.forEach((s, k) => {
    const length = Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
    for (const [x, y, ox, oy] of [
      [s.x1, s.y1, s.x0, s.y0],
      [s.x0, s.y0, s.x1, s.y1],
    ] as const) {
      const ux = (x - ox) / length;
      const uy = (y - oy) / length;
      let t = 0.5;
      // Up to maxGap from the rim, or farther while the line hugs the rim: a line nearly tangent to the hole (a window's
      // frame, a wall's corner just touched by it) runs within the 2 pixels cut off its segments for a long way.
      while (inImage(x + ux * t, y + uy * t) && (t <= maxGap || at(rim, x + ux * t, y + uy * t)) && !at(hole, x + ux * t, y + uy * t)) t += 0.5;
      if (!inImage(x + ux * t, y + uy * t) || !at(hole, x + ux * t, y + uy * t)) continue;
      const entry = t;
      let exit = -1;
      for (; inImage(x + ux * t, y + uy * t); t += 0.5) {
        if (!at(hole, x + ux * t, y + uy * t)) {
          exit = t;
          break;
        }
      }
      if (exit > 0) ends.push({ segment: k, x, y, ux, uy, length, entry, exit });
    }
  });

  // Two ends face each other across the hole on one line: the line through them runs through the hole (apart from
  // the gaps at the rims) and agrees with both segments' directions, within what a segment of its length can say.
  const tolerance = (length: number) => Math.min(maxAngle + (4 * Math.PI) / 180, maxAngle + Math.atan(2 / length));
  const candidates: { a: End; b: End; deviation: number; length: number; ux: number; uy: number }[] = [];
  for (const a of ends) {
    for (const b of ends) {
      if (b.segment <= a.segment) continue;
      if (a.ux * b.ux + a.uy * b.uy > -Math.cos((10 * Math.PI) / 180)) continue;
      const length = Math.hypot(b.x - a.x, b.y - a.y);
      if (length < 1) continue;
      const ux = (b.x - a.x) / length;
      const uy = (b.y - a.y) / length;
      const deviationA = Math.acos(Math.min(1, ux * a.ux + uy * a.uy));
      const deviationB = Math.acos(Math.min(1, -(ux * b.ux + uy * b.uy)));
      if (deviationA > tolerance(a.length) || deviationB > tolerance(b.length)) continue;
      // Known pixels on the way: only the gaps at the two rims, and nothing excluded.
      let outside = 0;
      let clear = true;
      for (let t = 0; t <= length && clear; t += 0.5) {
        const x = a.x + ux * t;
        const y = a.y + uy * t;
        if (at(hole, x, y)) continue;
        if (at(blocked, x, y)) clear = false;
        // Known pixels hugging the rim do not count: a nearly tangent line runs beside the hole as long as through it.
        if (!at(rim, x, y)) outside += 0.5;
      }
      if (!clear || outside > 2 * maxGap + 2) continue;
      candidates.push({ a, b, deviation: deviationA + deviationB, length, ux, uy });
    }
  }
  candidates.sort((p, q) => p.deviation - q.deviation);
  const lines: Line[] = [];
  const used = new Set<End>();
  for (const { a, b, length, ux, uy } of candidates) {
    if (used.has(a) || used.has(b)) continue;
    used.add(a);
    used.add(b);
    lines.push({ px: a.x, py: a.y, ux, uy, length, nearLength: Math.max(2, a.length - 1), farLength: Math.max(2, b.length - 1) });
  }

  // A line whose far side is too short for LSD (a board seam across the tip of a hole, a cornice that ends at a corner
  // just past it): an end left without a partner goes on through the hole when the crossing is at most three times its
  // segment's length and the known pixels just past the far rim show the same edge on the same line, with the same
  // polarity and at least half its contrast.
  const lumaAt = (x: number, y: number): number => {
    const i = 3 * (Math.floor(y) * width + Math.floor(x));
    return 0.299 * small.data[i]! + 0.587 * small.data[i + 1]! + 0.114 * small.data[i + 2]!;
  };
  const known = (x: number, y: number) => inImage(x, y) && !at(blocked, x, y);
  /** Mean luma difference across the line (2 px either side) over t in [from, to], or NaN where a side is not known. */
  const contrast = (e: End, from: number, to: number): number => {
    let sum = 0;
    let n = 0;
    for (let t = from; t <= to; t += 1) {
      const x = e.x + e.ux * t;
      const y = e.y + e.uy * t;
      const [ax, ay, bx, by] = [x - e.uy * 2, y + e.ux * 2, x + e.uy * 2, y - e.ux * 2];
      if (!known(ax, ay) || !known(bx, by)) return Number.NaN;
      sum += lumaAt(ax, ay) - lumaAt(bx, by);
      n++;
    }
    return n > 0 ? sum / n : Number.NaN;
  };
  const farEvidence = 6;
  for (const a of ends) {
    if (used.has(a) || a.exit - a.entry > 3 * a.length) continue;
    // From where both sides of the line are known, two pixels past the rim at least (the reduction bled the grey hole
    // into the first): a line leaving the hole at a slant has the hole on one side for a few pixels more.
    let start = a.exit + 2;
    while (start < a.exit + 2 * maxGap && Number.isNaN(contrast(a, start, start))) start += 1;
    const near = contrast(a, -a.length + 1, -1);
    const beyond = contrast(a, start, start + farEvidence - 1);
    if (!(Math.abs(near) >= 8 && beyond * Math.sign(near) >= 0.5 * Math.abs(near))) continue;
    // The far half copies from as far as the edge goes on (a seam that stops at the skirting stops there too).
    let far = farEvidence;
    while (far < a.length && contrast(a, start + far, start + far) * Math.sign(near) >= 0.25 * Math.abs(near)) far += 1;
    used.add(a);
    lines.push({ px: a.x, py: a.y, ux: a.ux, uy: a.uy, length: start - 1, nearLength: Math.max(2, a.length - 1), farLength: far });
  }
  return lines;
}
