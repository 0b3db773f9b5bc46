/** An axis-aligned rectangle in pixels of the image it was found in: left, top, width, height (fractions allowed). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A detection: a box and the detector's confidence in [0, 1]. */
export interface ScoredBox extends Box {
  score: number;
}

export function area(box: Box): number {
  return Math.max(0, box.width) * Math.max(0, box.height);
}

export function intersectionArea(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

export function intersectionOverUnion(a: Box, b: Box): number {
  const shared = intersectionArea(a, b);
  return shared === 0 ? 0 : shared / (area(a) + area(b) - shared);
}

/** The smallest box holding every point. */
export function boxOfPoints(points: readonly (readonly [number, number])[]): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** Share of `inner` that lies inside `outer`. */
export function coverage(inner: Box, outer: Box): number {
  const size = area(inner);
  return size === 0 ? 0 : intersectionArea(inner, outer) / size;
}

/** The box grown by `fraction` of its own width and height on every side. */
export function expandBox<T extends Box>(box: T, fraction: number): T {
  const dx = box.width * fraction;
  const dy = box.height * fraction;
  return { ...box, x: box.x - dx, y: box.y - dy, width: box.width + 2 * dx, height: box.height + 2 * dy };
}

/** Whole pixels covering the box, cut to the image: [x0, y0, x1, y1) with x0 < x1 and y0 < y1, or undefined if outside. */
export function pixelBounds(box: Box, width: number, height: number): [number, number, number, number] | undefined {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(width, Math.ceil(box.x + box.width));
  const y1 = Math.min(height, Math.ceil(box.y + box.height));
  return x0 < x1 && y0 < y1 ? [x0, y0, x1, y1] : undefined;
}
