import { boxMean } from '../box-filter.js';
import type { ColourPlanes } from '../colour-planes.js';
import { connectedComponents, type Component } from '../connected-components.js';
import { clusterDistance, fitFeatureClusters, type FeatureClusters } from '../declutter/feature-clusters.js';
import { floorFeatures } from '../declutter/floor-appearance.js';
import { squaredDistanceToMask } from '../declutter/mask-shapes.js';
import { dilateSquare, erodeSquare } from '../mask-morphology.js';

/**
 * Which cells of a working copy show one surface of the room (the walls' paint, or the floor), from the layout's
 * faces and the surface's own look. The layout is a box fitted to lines: its borders are approximate and it knows
 * nothing of what stands in the room, so a cell is the surface only when
 *  - it lies on the surface's faces, or within `band` cells of their border with another surface and reached from
 *    them without crossing a step in brightness (the layout's line a little off), and along that border it looks
 *    more like the surface than like its rival (a skirting inside the layout's floor);
 *  - it is not forbidden (windows, doors and their frames, skirting and cornices, detected furniture);
 *  - it looks like the surface: within `threshold` robust spreads of the look learnt on each face's interior (log
 *    chromaticity, texture, and for walls the brightness, both against the face's own local mean: a paint under a
 *    light that varies, where a socket or a frame stands out by its colour or its outline);
 *  - it belongs to a large piece of such cells that holds some of the faces' interior; a small piece cut off from the
 *    rest must have the main piece's colour (the sky in a window pane the openings missed is no paint).
 * Holes are closed only when nothing in them surely differs (hysteresis; see closeFaintHoles). Every doubt leaves
 * the cell out: an unchanged pixel is a lesser fault than a wrongly painted one.
 */
export interface SurfaceMaskInput {
  planes: ColourPlanes;
  /** Face index of every cell (the layout's labels at the working size). */
  labels: Uint8Array;
  /** The face indices that make up the surface. */
  faces: readonly number[];
  /** 1 where the surface may not be changed. */
  forbidden: Uint8Array;
}

export interface SurfaceMaskOptions {
  /** Cells either side of the layout's border with another surface that are uncertain. */
  band: number;
  /**
   * Walls: brightness and colour are judged against the face's local mean (a paint under varying light); floors:
   * colour against the floor's own looks and no brightness (boards of several tones, sun patches, shadows).
   */
  localLook: boolean;
  /** Most appearance clusters (a plank floor has several tones). */
  clusters: number;
  /** Robust z-score length beyond which a cell does not look like the surface. */
  threshold: number;
  /** Least size of a kept piece, as a share of the faces' cells. */
  minPieceShare: number;
  /**
   * Largest spread of each feature a cluster may claim (brightness, warmth, tint, log texture): a paint is one colour,
   * so a wall face whose interior holds several looks (the layout's wall over a floor and doors) is judged by the
   * tightest look, and the rest of it is left out.
   */
  maxSpread?: readonly [number, number, number, number];
  /**
   * The faces of the surface it could be mistaken for (the floor for the walls, the walls for the floor). Within the
   * band along the layout's border, a cell that looks more like their interior than like the surface (colour and
   * texture) is theirs: a skirting inside the layout's floor, an old floor's strip inside its wall. How much of their
   * interior the surface's look would take is reported as `confusion`: a surface that cannot be told from them is
   * better left alone (a pale laminate under greige walls, where a layout's wall running down over the floor would
   * carry the paint onto it).
   */
  rivals?: readonly number[];
  /**
   * 1 on cells below the horizon: a piece of the surface lying wholly there must be larger than MIN_LOW_PIECE_SHARE
   * (walls: the pale mirror image of a wall in a glossy floor is paint-like, and a wrong layout can call it wall).
   */
  belowHorizon?: Uint8Array;
  /** A brightness step between neighbours above this (log units) stops the growth past the layout's border. */
  edgeStep: number;
  /** Cells smoother than the surface's median texture count as the surface's (walls). */
  smoothIsSurface?: boolean;
  /**
   * A hole holding a fixture is closed around it (walls: a socket is small and crisp, the shade around it paint; on a
   * floor, what stands there has soft parts a margin would cut in two). See closeFaintHoles.
   */
  closeAroundFixtures?: boolean;
  /**
   * `smoothMask` is the mask with the notches in its border narrower than the band closed, where nothing surely
   * differs (walls: along a skirting or a door's casing the layout's line misses, cells just past the threshold left
   * the paint's edge in teeth; seen on empty_bedroom_02). Forbidden cells stay out.
   */
  closeNotches?: boolean;
}

export interface SurfaceMask {
  width: number;
  height: number;
  /** 1 on the surface. */
  mask: Uint8Array;
  /**
   * What a change covers: `mask` with its notches closed (closeNotches), else `mask` itself. Checks judge `mask`:
   * closing the notches would hide the ragged border that marks a mask gone wrong (empty_living_06's wall of
   * cupboards, whose paint passed the walls' raggedness check once smoothed).
   */
  smoothMask: Uint8Array;
  /** Cells of the layout's faces, and the share of them (less the forbidden ones) that were kept. */
  faceCells: number;
  keptShare: number;
  /** Share of the rival faces' interior that looks like the surface (0 without rivals, or when too little is seen). */
  confusion: number;
  /**
   * The looks learnt on the faces' interior (pooled): each one's share of the interior and how far its centre lies
   * from the dominant (largest) look's, in the dominant look's robust spreads of colour and texture. A look far from
   * the dominant one is something else lying on the surface (a rug on a floor), not a tone of it.
   */
  looks: { share: number; apart: number }[];
}

/**
 * Least spreads of the features: brightness against the local light, warmth and tint (log chromaticity), log texture.
 * Brightness is given a wide one: light changes fast near a lamp or in a corner, and only a fixture far darker or
 * lighter than the paint (a black frame, a screen) should stand out by brightness alone.
 */
const MIN_SPREAD = [0.2, 0.03, 0.012, 0.25] as const;
/** The features that do not depend on the light: colour and texture. */
const LOOK = [false, true, true, true] as const;
/**
 * A piece smaller than this share of the main piece, farther than MINOR_REACH cells from it, is dropped when its colour
 * is not the main piece's (log chromaticity beyond SAME_PAINT).
 */
const MINOR_PIECE = 0.1;
const MINOR_REACH = 3;
const SAME_PAINT = [0.1, 0.05] as const;
/** A piece wholly below the horizon must hold this share of the faces' cells (see SurfaceMaskOptions.belowHorizon). */
const MIN_LOW_PIECE_SHARE = 0.05;
/** Fewer interior cells than this and the surface's look is not learnt at all. */
const MIN_LEARNT_CELLS = 200;
/** Holes of at most this many cells are noise and are closed, unless forbidden. */
const PINHOLE_CELLS = 6;
/** A hole is closed when none of its cells is beyond this multiple of the threshold (see closeFaintHoles)... */
const FIXTURE_FACTOR = 1.75;
/** ... and it holds at most this share of the faces' cells. */
const MAX_FAINT_HOLE_SHARE = 0.03;
/** Cells around a fixture's core inside a hole that stay out with it (its outline's soft edge). */
const FIXTURE_MARGIN = 2;
/** Radius of the local mean, as a share of the working copy's longer side. */
const LOCAL_RADIUS = 0.03;

export function surfaceMask(input: SurfaceMaskInput, options: SurfaceMaskOptions): SurfaceMask {
  const { planes, labels, faces, forbidden } = input;
  const { width, height } = planes;
  const n = width * height;
  const onFaces = new Uint8Array(n);
  const offFaces = new Uint8Array(n);
  let faceCells = 0;
  for (let i = 0; i < n; i++) {
    if (faces.includes(labels[i]!)) {
      onFaces[i] = 1;
      faceCells++;
    } else offFaces[i] = 1;
  }
  const none = new Uint8Array(n);
  const empty: SurfaceMask = { width, height, mask: none, smoothMask: none, faceCells, keptShare: 0, confusion: 0, looks: [] };
  const toOther = squaredDistanceToMask(offFaces, width, height);
  const toFaces = squaredDistanceToMask(onFaces, width, height);
  const blocked = dilateSquare(forbidden, width, height, 1);
  const band2 = options.band * options.band;
  const interior: number[] = [];
  for (let i = 0; i < n; i++) if (onFaces[i] && !blocked[i] && toOther[i]! > band2) interior.push(i);
  // Too little of the surface's interior to learn its look from: nothing is taken for it.
  if (interior.length < MIN_LEARNT_CELLS) return empty;
  const cells = Int32Array.from(interior);

  const look = floorFeatures(planes, 2, cells);
  const nearest = nearestFace(labels, onFaces, width, height, options.band + 2);
  // Smoother than the paint is still paint (a wall in the glare, a clipped patch); only more texture (an outline, a
  // fixture's edge) counts against a wall. A floor smoother than its boards is a rug or an object.
  const smoothest = options.smoothIsSurface ? medianOf(look.texture, cells) : 0;
  // A paint is one colour under a light that varies: its brightness and colour are judged against the face's own local
  // mean (a warm bounce from the floor, the window's daylight), so only what changes abruptly stands out.
  const local = (plane: Float32Array) => localMean(plane, labels, nearest, onFaces, blocked, width, height);
  const light = options.localLook ? local(look.shade) : undefined;
  const warmth = options.localLook ? local(look.warmth) : undefined;
  const tint = options.localLook ? local(look.tint) : undefined;
  const features = new Float32Array(n * 4);
  // The same without the local means, to compare the surface with its rival, whose cells have no local mean of its.
  const absolute = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    features[i * 4] = light ? look.shade[i]! - light[i]! : 0;
    features[i * 4 + 1] = look.warmth[i]! - (warmth ? warmth[i]! : 0);
    features[i * 4 + 2] = look.tint[i]! - (tint ? tint[i]! : 0);
    features[i * 4 + 3] = Math.log(Math.max(look.texture[i]!, smoothest) + 0.005);
    absolute[i * 4 + 1] = look.warmth[i]!;
    absolute[i * 4 + 2] = look.tint[i]!;
    absolute[i * 4 + 3] = features[i * 4 + 3]!;
  }
  // Each face its own look (a wall in the window's glare, an accent wall); a face with too small an interior is
  // judged by the faces' pooled look.
  const fit = (learnt: Int32Array) => capSpreads(fitFeatureClusters(features, 4, learnt, options.clusters, 0.15, MIN_SPREAD), options.maxSpread);
  const pooled = fit(cells);
  const models = new Map<number, FeatureClusters>();
  for (const face of faces) {
    const own = Int32Array.from(interior.filter((i) => labels[i] === face));
    models.set(face, own.length >= MIN_LEARNT_CELLS ? fit(own) : pooled);
  }
  const use = [options.localLook, true, true, true];

  const candidate = new Uint8Array(n);
  const distance = new Float32Array(n).fill(Infinity);
  // The rival faces' interior: their look is learnt on it, and the confusion below is measured on the same cells.
  const rivalCells = options.rivals ? interiorOf(labels, blocked, options.rivals, options.band, width, height) : undefined;
  const rival = rivalCells ? rivalModel(absolute, rivalCells) : undefined;
  const own = rival ? fitFeatureClusters(absolute, 4, cells, options.clusters, 0.15, MIN_SPREAD) : undefined;
  // Only the border with the rival's own faces is in doubt between the two: along the walls' border with the ceiling,
  // the floor's wide look would claim the wall's cooler cells in a corner's shade (each look's distance is in its own
  // spreads), and the paint would stop in jagged bays below the ceiling.
  const toRival = rival ? squaredDistanceToMask(Uint8Array.from(labels, (l) => (options.rivals!.includes(l) ? 1 : 0)), width, height) : undefined;
  for (let i = 0; i < n; i++) {
    if (forbidden[i] || toFaces[i]! > band2) continue;
    // Along the layout's border, where its line may be off, a cell that looks more like the rival is the rival's.
    if (rival && toRival![i]! <= band2 && clusterDistance(rival, absolute, i, LOOK) <= clusterDistance(own!, absolute, i, LOOK)) continue;
    distance[i] = clusterDistance(models.get(nearest[i]!) ?? pooled, features, i, use);
    if (distance[i]! <= options.threshold) candidate[i] = 1;
  }
  // An opening by one cell: a one-cell bridge across an outline does not join a fixture to the wall.
  const opened = dilateSquare(erodeSquare(candidate, width, height, 1), width, height, 1);
  for (let i = 0; i < n; i++) candidate[i] = candidate[i]! & opened[i]!;

  const onFaceCandidates = new Uint8Array(n);
  for (let i = 0; i < n; i++) onFaceCandidates[i] = candidate[i]! & onFaces[i]!;
  const minPiece = Math.max(16, options.minPieceShare * faceCells);
  const mask = new Uint8Array(n);
  const isInterior = new Uint8Array(n);
  for (const i of cells) isInterior[i] = 1;
  const minLowPiece = MIN_LOW_PIECE_SHARE * faceCells;
  const below = options.belowHorizon;
  const pieces = connectedComponents(onFaceCandidates, width, height).filter((piece) => {
    if (piece.pixels.length < minPiece || !piece.pixels.some((p) => isInterior[p])) return false;
    return !(below && piece.pixels.length < minLowPiece && piece.pixels.every((p) => below[p]));
  });
  const main = pieces.reduce<(typeof pieces)[number] | undefined>((best, piece) => (!best || piece.pixels.length > best.pixels.length ? piece : best), undefined);
  const mainLook = main ? medianLook(look, main.pixels) : undefined;
  let nearMain: Uint8Array | undefined;
  if (main && options.localLook) {
    const mainCells = new Uint8Array(n);
    for (const p of main.pixels) mainCells[p] = 1;
    nearMain = dilateSquare(mainCells, width, height, MINOR_REACH);
  }
  for (const piece of pieces) {
    // A piece cut off from the main one and much smaller, away from it (past more than an edge line) and in another
    // colour, is no paint: judged against its own surroundings, the sky in a window pane the openings missed could
    // pass for it. A wall the main piece meets at a corner, in the window's daylight, is another colour but beside it.
    if (nearMain && piece !== main && piece.pixels.length < MINOR_PIECE * main!.pixels.length && !piece.pixels.some((p) => nearMain![p])) {
      const [warmth, tint] = medianLook(look, piece.pixels);
      if (Math.abs(warmth - mainLook![0]) > SAME_PAINT[0] || Math.abs(tint - mainLook![1]) > SAME_PAINT[1]) continue;
    }
    for (const p of piece.pixels) mask[p] = 1;
  }
  growPastBorder(mask, candidate, onFaces, look.shade, width, options.band, options.edgeStep);
  // What surely differs from the surface (a fixture's core): never closed over.
  const certain = options.threshold * FIXTURE_FACTOR;
  closeFaintHoles(mask, distance, onFaces, forbidden, certain, Math.max(PINHOLE_CELLS, MAX_FAINT_HOLE_SHARE * faceCells), options.closeAroundFixtures ?? false, width, height);
  let smoothMask = mask;
  if (options.closeNotches) {
    const closed = erodeSquare(dilateSquare(mask, width, height, options.band), width, height, options.band);
    smoothMask = Uint8Array.from(mask);
    for (let i = 0; i < n; i++) if (closed[i] && onFaces[i] && !forbidden[i] && distance[i]! <= certain) smoothMask[i] = 1;
  }

  let allowed = 0;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    if (onFaces[i] && !forbidden[i]) allowed++;
    if (onFaces[i] && mask[i]) kept++;
  }
  const confusion = own ? rivalConfusion(absolute, rivalCells!, own, options.threshold) : 0;
  return { width, height, mask, smoothMask, faceCells, keptShare: allowed > 0 ? kept / allowed : 0, confusion, looks: looksOf(pooled) };
}

/** Each cluster's share, and its centre's distance from the largest cluster's in that cluster's spreads (LOOK only). */
function looksOf(model: FeatureClusters): { share: number; apart: number }[] {
  let dominant = 0;
  for (let c = 1; c < model.count; c++) if (model.share[c]! > model.share[dominant]!) dominant = c;
  const d = model.dimensions;
  return Array.from({ length: model.count }, (_, c) => {
    let sum = 0;
    for (let k = 0; k < d; k++) {
      if (!LOOK[k]) continue;
      const t = (model.centre[c * d + k]! - model.centre[dominant * d + k]!) / model.spread[dominant * d + k]!;
      sum += t * t;
    }
    return { share: model.share[c]!, apart: Math.sqrt(sum) };
  });
}

/** The rival faces' look (one cluster), learnt on their interior cells; undefined when too few are seen. */
function rivalModel(features: Float32Array, cells: readonly number[]): FeatureClusters | undefined {
  return cells.length >= MIN_LEARNT_CELLS ? fitFeatureClusters(features, 4, Int32Array.from(cells), 1, 0.15, MIN_SPREAD) : undefined;
}

/** The cells of `faces` farther than `band` from any other face, not blocked. */
function interiorOf(labels: Uint8Array, blocked: Uint8Array, faces: readonly number[], band: number, width: number, height: number): number[] {
  const other = new Uint8Array(width * height);
  for (let i = 0; i < other.length; i++) if (!faces.includes(labels[i]!)) other[i] = 1;
  const toOther = squaredDistanceToMask(other, width, height);
  const cells: number[] = [];
  for (let i = 0; i < other.length; i++) if (!other[i] && !blocked[i] && toOther[i]! > band * band) cells.push(i);
  return cells;
}

/** Share of the rival faces' interior cells that the surface's look accepts by colour and texture. */
function rivalConfusion(features: Float32Array, cells: readonly number[], model: FeatureClusters, threshold: number): number {
  let taken = 0;
  for (const i of cells) if (clusterDistance(model, features, i, LOOK) <= threshold) taken++;
  return cells.length >= MIN_LEARNT_CELLS ? taken / cells.length : 0;
}

function capSpreads(model: FeatureClusters, maxSpread: SurfaceMaskOptions['maxSpread']): FeatureClusters {
  if (!maxSpread) return model;
  for (let c = 0; c < model.count; c++) {
    for (let d = 0; d < model.dimensions; d++) model.spread[c * model.dimensions + d] = Math.min(model.spread[c * model.dimensions + d]!, maxSpread[d]!);
  }
  return model;
}

/**
 * The local mean of a feature over each face's own unforbidden cells (a corner between a lit wall and a shaded one is
 * a step of light, not a fixture). Cells off the faces (the border band) take the mean of the face nearest them.
 */
function localMean(
  values: Float32Array,
  labels: Uint8Array,
  nearest: Uint8Array,
  onFaces: Uint8Array,
  blocked: Uint8Array,
  width: number,
  height: number,
): Float32Array {
  const n = width * height;
  const radius = Math.max(2, Math.round(LOCAL_RADIUS * Math.max(width, height)));
  const mean = new Float32Array(n);
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) if (onFaces[i]) seen.add(labels[i]!);
  for (const face of seen) {
    const weight = new Float32Array(n);
    const weighted = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      if (labels[i] !== face || !onFaces[i] || blocked[i]) continue;
      weight[i] = 1;
      weighted[i] = values[i]!;
    }
    const sum = boxMean(boxMean(weighted, width, height, radius), width, height, radius);
    const count = boxMean(boxMean(weight, width, height, radius), width, height, radius);
    for (let i = 0; i < n; i++) {
      if (nearest[i] !== face) continue;
      mean[i] = count[i]! > 1e-4 ? sum[i]! / count[i]! : values[i]!;
    }
  }
  return mean;
}

/** The face label of the nearest face cell (4-connected steps, at most `reach`), 255 where none is that near. */
function nearestFace(labels: Uint8Array, onFaces: Uint8Array, width: number, height: number, reach: number): Uint8Array {
  const nearest = new Uint8Array(width * height).fill(255);
  let frontier: number[] = [];
  for (let i = 0; i < nearest.length; i++) {
    if (!onFaces[i]) continue;
    nearest[i] = labels[i]!;
    frontier.push(i);
  }
  for (let step = 0; step < reach && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= nearest.length || nearest[j] !== 255) continue;
        nearest[j] = nearest[i]!;
        next.push(j);
      }
    }
    frontier = next;
  }
  return nearest;
}

/**
 * Grows the mask past the faces' border, at most `band` steps, into passable cells, never across a brightness step
 * larger than `edgeStep`: where the layout's line runs short of the surface's true edge, the surface goes on to the
 * edge the photo shows, and no further.
 */
function growPastBorder(
  mask: Uint8Array,
  passable: Uint8Array,
  onFaces: Uint8Array,
  shade: Float32Array,
  width: number,
  band: number,
  edgeStep: number,
): void {
  let frontier: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) frontier.push(i);
  for (let step = 0; step < band && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= mask.length || mask[j] || onFaces[j] || !passable[j]) continue;
        if (Math.abs(shade[j]! - shade[i]!) > edgeStep) continue;
        mask[j] = 1;
        next.push(j);
      }
    }
    frontier = next;
  }
}

/**
 * Closes the holes in the mask that hold nothing that surely differs from the surface: no cell beyond `certain`
 * (hysteresis: a fixture has a core that stands out clearly, a patch of noise or of uneven light only cells that just
 * miss the threshold), and at most `largest` cells. A hole is a piece of the faces outside the mask and outside the
 * forbidden cells, bordered only by the mask and forbidden cells (a patch against a skirting is a hole; one open to the
 * ceiling is not). Holes of PINHOLE_CELLS or fewer are closed whatever they hold: speckle.
 *
 * With `aroundFixtures`, a hole around a fixture (a socket in a corner's shade) is the fixture and a patch of light:
 * the fixture's core, the cells beyond `certain` grown by FIXTURE_MARGIN, stays out, and of the rest each piece that
 * meets the mask is closed. A piece the core rings (a picture's pale canvas inside its frame) meets no mask and stays
 * out.
 */
function closeFaintHoles(
  mask: Uint8Array,
  distance: Float32Array,
  onFaces: Uint8Array,
  forbidden: Uint8Array,
  certain: number,
  largest: number,
  aroundFixtures: boolean,
  width: number,
  height: number,
): void {
  const holes = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) holes[i] = !mask[i] && onFaces[i] && !forbidden[i] ? 1 : 0;
  for (const hole of connectedComponents(holes, width, height)) {
    if (hole.pixels.length > largest) continue;
    if (hole.x === 0 || hole.y === 0 || hole.x + hole.width >= width || hole.y + hole.height >= height) continue;
    const enclosed = hole.pixels.every((p) => {
      const x = p % width;
      return [x > 0 ? p - 1 : p, x < width - 1 ? p + 1 : p, p - width, p + width].every((q) => holes[q] || mask[q] || forbidden[q]);
    });
    if (!enclosed) continue;
    const core = hole.pixels.filter((p) => distance[p]! > certain);
    if (hole.pixels.length <= PINHOLE_CELLS || core.length === 0) for (const p of hole.pixels) mask[p] = 1;
    else if (aroundFixtures) closeAroundCore(mask, hole, core, width, height);
  }
}

/** Closes the pieces of a hole, less its core grown by FIXTURE_MARGIN, that meet the mask (see closeFaintHoles). */
function closeAroundCore(mask: Uint8Array, hole: Component, core: number[], width: number, height: number): void {
  // Worked on the hole's bounding box with the margin around it.
  const x0 = Math.max(0, hole.x - FIXTURE_MARGIN - 1);
  const y0 = Math.max(0, hole.y - FIXTURE_MARGIN - 1);
  const w = Math.min(width, hole.x + hole.width + FIXTURE_MARGIN + 1) - x0;
  const h = Math.min(height, hole.y + hole.height + FIXTURE_MARGIN + 1) - y0;
  const local = (p: number) => (Math.floor(p / width) - y0) * w + (p % width) - x0;
  const coreCells = new Uint8Array(w * h);
  for (const p of core) coreCells[local(p)] = 1;
  const keptOut = dilateSquare(coreCells, w, h, FIXTURE_MARGIN);
  const rest = new Uint8Array(w * h);
  for (const p of hole.pixels) if (!keptOut[local(p)]) rest[local(p)] = 1;
  for (const piece of connectedComponents(rest, w, h)) {
    const global = piece.pixels.map((q) => (y0 + Math.floor(q / w)) * width + x0 + (q % w));
    const meetsMask = global.some((p) => {
      const x = p % width;
      return [x > 0 ? p - 1 : p, x < width - 1 ? p + 1 : p, p - width, p + width].some((q) => q >= 0 && q < mask.length && mask[q]);
    });
    if (meetsMask) for (const p of global) mask[p] = 1;
  }
}

/** Median warmth and tint of the cells. */
function medianLook(look: { warmth: Float32Array; tint: Float32Array }, pixels: readonly number[]): [number, number] {
  const cells = Int32Array.from(pixels);
  return [medianOf(look.warmth, cells), medianOf(look.tint, cells)];
}

function medianOf(values: Float32Array, cells: Int32Array): number {
  const picked = Float32Array.from(cells, (i) => values[i]!).sort();
  return picked[Math.floor(picked.length / 2)] ?? 0;
}
