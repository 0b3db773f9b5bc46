/**
 * Plane outlines and centre lines, in metres: polygons in the XY plane (counter-clockwise unless said otherwise) for
 * plates, prisms and lofts to be built on, and open lines for boards and frames to follow.
 */

/** A point of a 2D outline or profile. */
export type Pt = [number, number];

/** Twice the signed area of a polygon (positive when counter-clockwise). */
export function signedArea(points: Pt[]): number {
  let area = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    area += a[0] * b[1] - b[0] * a[1];
  }
  return area;
}

/** The outline in counter-clockwise order (reversed if it was clockwise). */
export function counterClockwise(points: Pt[]): Pt[] {
  return signedArea(points) < 0 ? [...points].reverse() : points;
}

/** A circle's outline (counter-clockwise from angle 0; `n` a multiple of 4 puts vertices on the axes). */
export function circlePoints(radius: number, n: number, cx = 0, cy = 0): Pt[] {
  return shiftPts(ellipse(2 * radius, 2 * radius, n), cx, cy);
}

/** A superellipse |x/a|^e + |y/b|^e = 1 (e = 2 an ellipse, larger a rounder rectangle), counter-clockwise. */
export function superellipse(a: number, b: number, exponent: number, n: number, cx = 0, cy = 0): Pt[] {
  const points: Pt[] = [];
  const k = 2 / exponent;
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    const c = Math.cos(t);
    const s = Math.sin(t);
    points.push([cx + a * Math.sign(c) * Math.abs(c) ** k, cy + b * Math.sign(s) * Math.abs(s) ** k]);
  }
  return points;
}

/**
 * A rounded rectangle centred on (cx, cy), counter-clockwise, with always 4 × (segments + 1) points so that outlines
 * of different sizes pair up in a loft (roundedRectangle drops the repeated points of a zero radius instead).
 */
export function roundedRect(width: number, depth: number, radius: number, segments = 4, cx = 0, cy = 0): Pt[] {
  const r = Math.max(0.0005, Math.min(radius, 0.499 * Math.min(width, depth)));
  const corners: [number, number, number][] = [
    [width / 2 - r, -depth / 2 + r, -Math.PI / 2],
    [width / 2 - r, depth / 2 - r, 0],
    [-width / 2 + r, depth / 2 - r, Math.PI / 2],
    [-width / 2 + r, -depth / 2 + r, Math.PI],
  ];
  const points: Pt[] = [];
  for (const [x, y, start] of corners) {
    for (let s = 0; s <= segments; s++) {
      const a = start + ((Math.PI / 2) * s) / segments;
      points.push([cx + x + r * Math.cos(a), cy + y + r * Math.sin(a)]);
    }
  }
  return points;
}

/** An arch: straight sides from y = 0 and a half-circle top reaching y = height, counter-clockwise. */
export function archOutline(width: number, height: number, segments = 16): Pt[] {
  const r = width / 2;
  const spring = Math.max(0.001, height - r);
  const points: Pt[] = [[r, 0]];
  for (let k = 0; k <= segments; k++) {
    const a = (Math.PI * k) / segments;
    points.push([r * Math.cos(a), spring + r * Math.sin(a)]);
  }
  points.push([-r, 0]);
  return points;
}

/** The points moved by (dx, dy). */
export function shiftPts(points: Pt[], dx: number, dy: number): Pt[] {
  return points.map(([x, y]) => [x + dx, y + dy]);
}

/** The points scaled about the origin (a negative factor mirrors, and so reverses the winding). */
export function scalePts(points: Pt[], sx: number, sy = sx): Pt[] {
  return points.map(([x, y]) => [x * sx, y * sy]);
}

/** Moves every point of a counter-clockwise outline outward by `distance` (inward when negative), mitred. */
export function offsetOutline(points: Pt[], distance: number): Pt[] {
  const n = points.length;
  return points.map((p, i) => {
    const prev = points[(i - 1 + n) % n]!;
    const next = points[(i + 1) % n]!;
    const e1 = unit2([p[0] - prev[0], p[1] - prev[1]]);
    const e2 = unit2([next[0] - p[0], next[1] - p[1]]);
    const n1: Pt = [e1[1], -e1[0]];
    const n2: Pt = [e2[1], -e2[0]];
    const k = Math.max(0.3, 1 + n1[0] * n2[0] + n1[1] * n2[1]);
    return [p[0] + ((n1[0] + n2[0]) * distance) / k, p[1] + ((n1[1] + n2[1]) * distance) / k];
  });
}

function unit2(v: Pt): Pt {
  const l = Math.hypot(v[0], v[1]);
  return l > 1e-12 ? [v[0] / l, v[1] / l] : [1, 0];
}

/**
 * A rectangle with rounded corners (counter-clockwise), for table tops, mirrors and rugs: `segments` steps per corner,
 * a corner of radius 0 giving one point. See roundedRect for one whose point count never changes.
 */
export function roundedRectangle(width: number, depth: number, radius: number, segments = 6): Pt[] {
  const r = Math.max(0, Math.min(radius, width / 2, depth / 2));
  if (r === 0) return [[-width / 2, -depth / 2], [width / 2, -depth / 2], [width / 2, depth / 2], [-width / 2, depth / 2]];
  const points: Pt[] = [];
  const corners: [number, number, number][] = [
    [width / 2 - r, -depth / 2 + r, -Math.PI / 2],
    [width / 2 - r, depth / 2 - r, 0],
    [-width / 2 + r, depth / 2 - r, Math.PI / 2],
    [-width / 2 + r, -depth / 2 + r, Math.PI],
  ];
  for (const [x, y, start] of corners) {
    for (let s = 0; s <= segments; s++) {
      const angle = start + ((Math.PI / 2) * s) / segments;
      points.push([x + r * Math.cos(angle), y + r * Math.sin(angle)]);
    }
  }
  return points.filter((p, i, all) => i === 0 || Math.hypot(p[0] - all[i - 1]![0], p[1] - all[i - 1]![1]) > 1e-9);
}

/** An ellipse's outline (counter-clockwise). */
export function ellipse(width: number, depth: number, segments = 32): Pt[] {
  const points: Pt[] = [];
  for (let s = 0; s < segments; s++) {
    const angle = (2 * Math.PI * s) / segments;
    points.push([(width / 2) * Math.cos(angle), (depth / 2) * Math.sin(angle)]);
  }
  return points;
}

/** Points along an arc of a circle in the XY plane (angles in radians, counter-clockwise from +X). */
export function arcLine(cx: number, cy: number, radius: number, from: number, to: number, steps: number): Pt[] {
  const line: Pt[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = from + ((to - from) * i) / steps;
    line.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
  }
  return line;
}

/**
 * A centre line across X bowed back at its middle (concave to the sitter): x from −span to span, y = yEnds at
 * x = ±half and yEnds + bow at x = 0.
 */
export function bowLine(span: number, half: number, yEnds: number, bow: number, steps = 12): Pt[] {
  const line: Pt[] = [];
  for (let i = 0; i <= steps; i++) {
    const x = -span + (2 * span * i) / steps;
    line.push([x, yEnds + bow * (1 - (x / half) ** 2)]);
  }
  return line;
}
