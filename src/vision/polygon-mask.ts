/** A closed polygon in continuous pixel coordinates (pixel centres at +0.5). */
export type Polygon = readonly (readonly [number, number])[];

/**
 * Sets to `value` every pixel whose centre lies inside the polygon (even-odd rule), scanline by scanline; pixels
 * outside the image are ignored.
 */
export function fillPolygon(mask: Uint8Array, width: number, height: number, polygon: Polygon, value = 1): void {
  forEachSpan(polygon, width, height, (y, from, to) => mask.fill(value, y * width + from, y * width + to));
}

/**
 * Calls `visit` for each run of pixels whose centres lie inside the polygon (even-odd rule), row by row: pixels
 * `from` to `to` − 1 of row `y`, inside the image.
 */
export function forEachSpan(polygon: Polygon, width: number, height: number, visit: (y: number, from: number, to: number) => void): void {
  if (polygon.length < 3) return;
  const ys = polygon.map((p) => p[1]);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const crossings: number[] = [];
  for (let y = top; y <= bottom; y++) {
    const cy = y + 0.5;
    crossings.length = 0;
    for (let i = 0; i < polygon.length; i++) {
      const [x0, y0] = polygon[i]!;
      const [x1, y1] = polygon[(i + 1) % polygon.length]!;
      if ((y0 <= cy && y1 > cy) || (y1 <= cy && y0 > cy)) crossings.push(x0 + ((cy - y0) / (y1 - y0)) * (x1 - x0));
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      // Pixel x is inside when its centre x + 0.5 lies between the two crossings.
      const from = Math.max(0, Math.ceil(crossings[k]! - 0.5));
      const to = Math.min(width, Math.ceil(crossings[k + 1]! - 0.5));
      if (to > from) visit(y, from, to);
    }
  }
}

/** A new mask with the polygons filled. */
export function polygonMask(width: number, height: number, polygons: readonly Polygon[]): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const polygon of polygons) fillPolygon(mask, width, height, polygon);
  return mask;
}

/** Whether a point lies inside the polygon (even-odd rule). */
export function pointInPolygon(polygon: Polygon, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
