import { downsampleToPlanes, lumaOf } from './colour-planes.js';
import { dilateSquare } from './mask-morphology.js';
import { fillPolygon, forEachSpan, type Polygon } from './polygon-mask.js';
import type { RawImage } from './raw-image.js';

/** A luma step across two pixels (central differences, 0–255 levels) from which a pixel lies on an edge. */
const EDGE_STEP = 12;
/**
 * The longer side edges are looked for at. A frame's edge is a line a few pixels wide whatever the photo's size, so
 * its share of an outline falls as the photo grows; at one working size the thresholds measured on the shared rooms
 * (at 1024 px) hold for a 12 MP photo too.
 */
const WALL_EDGES_LONG_SIDE = 1024;
/** Pixels (at the working size) around each excluded outline also left out: a window's or door's own frame. */
const EXCLUDED_MARGIN_PX = 2;
/** Fewest counted pixels (at the working size, an 8-pixel square) a share is given for. */
const MIN_COUNTED_PIXELS = 64;

/**
 * Where the photo shows edges, to tell plain wall (near no edge: 0–0.8 % where the planner hung art on the plain walls
 * of the shared empty rooms, a socket included) from a door frame, a closet's doors, a pass-through to a kitchen,
 * cupboard fronts or the view through a window (8 % and more; docs/decisions/0012 and 0028). Built once per photo at
 * WALL_EDGES_LONG_SIDE; an outline is then summed row by row from prefix sums, so a planner may ask for every pose.
 * Pixels inside `excluded` outlines (the windows and doors already found, which other rules keep clear) are not
 * counted either way.
 */
export class WallEdges {
  private readonly width: number;
  private readonly height: number;
  private readonly scale: number;
  /** Per row, (width + 1) running counts of edge pixels and of counted pixels. */
  private readonly edgeSums: Uint32Array;
  private readonly countedSums: Uint32Array;

  constructor(image: RawImage, excluded: readonly Polygon[] = []) {
    this.scale = Math.min(1, WALL_EDGES_LONG_SIDE / Math.max(image.width, image.height));
    // The photo area-averaged to the working size, as its luma (0–1).
    const planes = downsampleToPlanes(image, WALL_EDGES_LONG_SIDE);
    const { width, height } = planes;
    this.width = width;
    this.height = height;
    const luma = lumaOf(planes);
    const step = EDGE_STEP / 255;
    const left = new Uint8Array(width * height);
    for (const polygon of excluded) fillPolygon(left, width, height, polygon.map(([x, y]) => [x * this.scale, y * this.scale] as const));
    const out = dilateSquare(left, width, height, EXCLUDED_MARGIN_PX);
    this.edgeSums = new Uint32Array((width + 1) * height);
    this.countedSums = new Uint32Array((width + 1) * height);
    for (let y = 0; y < height; y++) {
      let edges = 0;
      let counted = 0;
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        // The border row and column have no central difference: they are not counted.
        if (!out[i] && x > 0 && y > 0 && x < width - 1 && y < height - 1) {
          counted++;
          const gx = luma[i + 1]! - luma[i - 1]!;
          const gy = luma[i + width]! - luma[i - width]!;
          if (gx * gx + gy * gy > step * step) edges++;
        }
        this.edgeSums[y * (width + 1) + x + 1] = edges;
        this.countedSums[y * (width + 1) + x + 1] = counted;
      }
    }
  }

  /**
   * Share of the counted pixels inside the outlines (photo pixels, even-odd rule each; taken together) that lie on an
   * edge; undefined where they hold fewer than MIN_COUNTED_PIXELS (off the photo, a sliver, or all of it on what was
   * excluded): too little to tell a wall by.
   */
  share(outlines: readonly Polygon[]): number | undefined {
    let edges = 0;
    let counted = 0;
    for (const outline of outlines) {
      const sums = this.sums(outline);
      edges += sums.edges;
      counted += sums.counted;
    }
    return counted < MIN_COUNTED_PIXELS ? undefined : edges / counted;
  }

  private sums(outline: Polygon): { edges: number; counted: number } {
    let edges = 0;
    let counted = 0;
    const stride = this.width + 1;
    const scaled = outline.map(([x, y]) => [x * this.scale, y * this.scale] as const);
    forEachSpan(scaled, this.width, this.height, (y, from, to) => {
      edges += this.edgeSums[y * stride + to]! - this.edgeSums[y * stride + from]!;
      counted += this.countedSums[y * stride + to]! - this.countedSums[y * stride + from]!;
    });
    return { edges, counted };
  }
}
