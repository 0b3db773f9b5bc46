import { smoothstep } from '../shaping.js';
import { connectedComponents } from '../connected-components.js';
import { boxMean } from '../box-filter.js';
import { lumaOf, type ColourPlanes } from '../colour-planes.js';
import { closeMask, dilateSquare, floodFill, localMax } from '../mask-morphology.js';
import { computeSkyCues, type SkyCueOptions, type SkyCues } from './sky-cues.js';
import { distanceToSky, fitSkyModel, planarFit } from './sky-model.js';
import { dropNarrowStrips, extendSkyBeside, skylineLimit, walkAcrossWires, type SkylineOptions } from './skyline.js';
import { facadeStructure } from './facade-structure.js';
import { detectStraightEdges, rasterizeSegments, type LineSegment, type StraightEdgeOptions } from './straight-edges.js';

/** The sky found at the working resolution, before the full-resolution matte. */
export interface SkySegmentation {
  width: number;
  height: number;
  /** 1 where the working pixel is sky. */
  mask: Uint8Array;
  /** 0…1, the input of the matte: each sky pixel's share of sky, unmixed from the foreground next to it. */
  softMask: Float32Array;
  /** 0…1, sky likelihood × agreement with the sky model; 0 outside the mask. */
  confidence: Float32Array;
  /** The sky as it would look with nothing in front of it: smooth, defined everywhere (extrapolated under objects). */
  skyModel: ColourPlanes;
  /** Straight boundaries used as barriers. */
  barriers: LineSegment[];
  /** 1 where the floods reached, before the skyline cut them: what extendSkyBeside may add to the sky. */
  reachable: Uint8Array;

  cues: SkyCues;
}

export interface SkySegmentationOptions {
  /** Likelihood from which a pixel may join the sky. Default 0.45. */
  candidateThreshold?: number;
  /** Rows at the top, as a fraction of the height, whose candidates seed the sky. Default 0.02 (at least one row). */
  seedBandFraction?: number;
  /** Radius of the morphological closing that lets the sky flow past one- and two-pixel wires and twigs. Default 1. */
  bridgeRadius?: number;
  /** Distance to the sky model over which a pixel's confidence falls from 1 to 0. Default [0.07, 0.2]. */
  colourTolerance?: [number, number];
  /** Distance to the sky model that is still the sky's own grain (pure sky when unmixing). Default 0.08. */
  noiseFloor?: number;
  /** Radius, in working pixels, searched for the foreground a sky pixel is unmixed from. Default 3. */
  unmixRadius?: number;
  /** Largest symmetric distance to the sky model of a textured pixel of sky veiled by twigs. Default 0.25. */
  veilTolerance?: number;
  /** Texture (see SkyCues) from which a pixel counts as veiled rather than smooth. Default 0.012. */
  veilTexture?: number;
  /** Largest symmetric distance to the sky model of a smooth pixel reached by the second flood. Default 0.06. */
  gapTolerance?: number;
  /** Largest mean distance to the sky model of an enclosed patch (sky seen through a tree) that joins the sky. Default 0.05. */
  holeTolerance?: number;
  /** Largest enclosed patch that may join, as a fraction of the image: larger ones are walls or ceilings. Default 0.02. */
  maxHoleFraction?: number;
  /** How far from the sky an enclosed patch may be, as a fraction of the longer side. Default 0.08. */
  holeReachFraction?: number;
  /** Steps the sky may grow past the smooth region into the textured band along its border. Default 4. */
  borderBand?: number;
  /** Largest distance to the sky model of a border-band pixel. Default 0.1. */
  borderTolerance?: number;
  /** Radius of the sky model's averaging window, as a fraction of the longer side. Default 1/16. */
  skyModelRadiusFraction?: number;
  cues?: SkyCueOptions;
  lines?: StraightEdgeOptions;
  skyline?: SkylineOptions;
}

const DEFAULTS = {
  candidateThreshold: 0.45,
  seedBandFraction: 0.02,
  bridgeRadius: 1,
  colourTolerance: [0.07, 0.2] as [number, number],
  noiseFloor: 0.08,
  unmixRadius: 3,
  veilTolerance: 0.25,
  veilTexture: 0.012,
  gapTolerance: 0.06,
  holeTolerance: 0.05,
  maxHoleFraction: 0.02,
  holeReachFraction: 0.08,
  borderBand: 4,
  borderTolerance: 0.1,
  skyModelRadiusFraction: 1 / 16,
};

/**
 * Sky as the bright, sky-coloured, smooth region hanging from the top border, in five steps:
 * 1. a flood fill from candidates in the top rows through candidates (closed, so that thin wires do not cut it),
 *    stopped by long straight boundaries (roof lines, eaves, a flat horizon);
 * 2. a smooth model of the sky's colour fitted to that region;
 * 3. a second flood into sky veiled by twigs, judged by closeness to the model rather than by texture;
 * 4. enclosed patches that match the model (sky between branches), and a colour-checked band along the border where
 *    the texture window blurred the cues;
 * 5. only what lies above the skyline stays (see skylineLimit): the floods above reach a white wall or a road
 *    marking through any gap in a roofline, a column walk from the top cannot;
 * 6. each sky pixel's share of sky, unmixed from the foreground next to it: the input of the matte.
 * The classifier judges this; what is replaced is refined from it by refineSky (sky beside, one sky).
 */
export function segmentSky(planes: ColourPlanes, options: SkySegmentationOptions = {}): SkySegmentation {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  const cues = computeSkyCues(planes, options.cues);
  const barriers = detectStraightEdges(planes, options.lines);
  const blocked = rasterizeSegments(barriers, width, height);

  const candidate = new Uint8Array(width * height);
  for (let i = 0; i < candidate.length; i++) candidate[i] = cues.likelihood[i]! >= settings.candidateThreshold ? 1 : 0;
  const passable = closeMask(candidate, width, height, settings.bridgeRadius);
  for (let i = 0; i < passable.length; i++) if (blocked[i]) passable[i] = 0;

  const mask = new Uint8Array(width * height);
  const seedRows = Math.max(1, Math.round(settings.seedBandFraction * height));
  const seeds: number[] = [];
  for (let i = 0; i < seedRows * width; i++) if (passable[i]) seeds.push(i);
  floodFill(passable, mask, seeds, width, height);

  const radius = Math.max(2, Math.round(settings.skyModelRadiusFraction * Math.max(width, height)));
  const firstModel = fitSkyModel(planes, mask, radius);
  const distance = distanceToSky(planes, firstModel);
  growThroughVeil(mask, blocked, distanceToSky(planes, firstModel, 1), cues.texture, width, height, settings);
  const reach = Math.max(2, Math.round(settings.holeReachFraction * Math.max(width, height)));
  addEnclosedSky(mask, passable, distance, width, height, settings.holeTolerance, settings.maxHoleFraction, reach);
  growIntoBorderBand(mask, blocked, distance, width, settings.borderBand, settings.borderTolerance);
  const reachable = mask.slice();
  const aboveSkyline = skylineLimit(planes, mask, options.skyline);
  for (let i = 0; i < mask.length; i++) mask[i] = mask[i]! & aboveSkyline[i]!;
  dropNarrowStrips(mask, width, height, NARROW_STRIP_RADIUS);
  return finishSegmentation(planes, mask, reachable, cues, barriers, settings);
}

/**
 * The sky model, soft mask and confidence of a final sky mask; the model is fitted to `openSky` (by default the whole
 * mask: sky seen through a veil of twigs would darken it).
 */
function finishSegmentation(
  planes: ColourPlanes,
  mask: Uint8Array,
  reachable: Uint8Array,
  cues: SkyCues,
  barriers: LineSegment[],
  settings: typeof DEFAULTS,
  openSky: Uint8Array = mask,
): SkySegmentation {
  const { width, height } = planes;
  const radius = Math.max(2, Math.round(settings.skyModelRadiusFraction * Math.max(width, height)));
  const skyModel = fitSkyModel(planes, openSky, radius);
  const finalDistance = distanceToSky(planes, skyModel);
  const softMask = unmixedSkyShare(mask, finalDistance, width, height, settings);
  const confidence = new Float32Array(width * height);
  const [near, far] = settings.colourTolerance;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) confidence[i] = (1 - smoothstep(near, far, finalDistance[i]!)) * cues.likelihood[i]!;
  }
  return { width, height, mask, softMask, confidence, skyModel, barriers, reachable, cues };
}

/**
 * Second, looser flood from the smooth sky into sky that the first one could not reach: sky seen through a veil of
 * twigs, which the texture cue refuses, and smooth sky cut off by branches. At the working resolution a veil is a
 * textured mixture, mostly of sky: a textured pixel joins when its colour is within `veilTolerance` of the sky model
 * (about two thirds sky or more over dark twigs); a smooth pixel only when it is as close as `gapTolerance` — a smooth
 * surface a little off the sky's colour is a wall, a car or a road. A closing lets the flood step over single twigs;
 * trunks are too wide to step over. The distance is symmetric: a patch brighter than the sky next to it is trim or a
 * wall, not sky.
 */
function growThroughVeil(
  mask: Uint8Array,
  blocked: Uint8Array,
  symmetricDistance: Float32Array,
  texture: Float32Array,
  width: number,
  height: number,
  settings: typeof DEFAULTS,
): void {
  const mixed = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    const distance = symmetricDistance[i]!;
    mixed[i] = distance <= settings.gapTolerance || (distance <= settings.veilTolerance && texture[i]! >= settings.veilTexture) ? 1 : 0;
  }
  const passable = closeMask(mixed, width, height, settings.bridgeRadius);
  for (let i = 0; i < passable.length; i++) if (blocked[i]) passable[i] = 0;
  const seeds: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) seeds.push(i);
  floodFill(passable, mask, seeds, width, height);
}

/**
 * Patches of sky cut off from the top by branches or wires: candidate components not reached by the flood fill that
 * match the sky model closely, are small (a large one is a wall or a ceiling that happens to share the colour) and
 * lie within `reach` of the sky (a white waterfall or sign further down is not sky seen through a tree).
 */
function addEnclosedSky(
  mask: Uint8Array,
  passable: Uint8Array,
  distance: Float32Array,
  width: number,
  height: number,
  tolerance: number,
  maxFraction: number,
  reach: number,
): void {
  const nearSky = boxMean(Float32Array.from(mask), width, height, reach);
  const unreached = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) unreached[i] = passable[i] && !mask[i] ? 1 : 0;
  const maxSize = maxFraction * width * height;
  for (const { pixels } of connectedComponents(unreached, width, height)) {
    let distanceSum = 0;
    let near = false;
    for (const i of pixels) {
      distanceSum += distance[i]!;
      near ||= nearSky[i]! > 0;
    }
    const accept = near && pixels.length <= maxSize && distanceSum / pixels.length <= tolerance;
    if (accept) for (const i of pixels) mask[i] = 1;
  }
}

/**
 * Grows the sky by up to `steps` pixels into sky-coloured pixels along its border, where the texture window blurred
 * the cues. A barrier pixel may join when it is sky-coloured — a line found a pixel off the true edge would otherwise
 * leave a one-pixel strip of old sky — but the growth does not continue from it across the line.
 */
function growIntoBorderBand(
  mask: Uint8Array,
  blocked: Uint8Array,
  distance: Float32Array,
  width: number,
  steps: number,
  tolerance: number,
): void {
  let frontier: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) frontier.push(i);
  for (let step = 0; step < steps && frontier.length > 0; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width];
      for (const j of neighbours) {
        if (j < 0 || j >= mask.length || mask[j] || distance[j]! > tolerance) continue;
        mask[j] = 1;
        if (!blocked[j]) next.push(j);
      }
    }
    frontier = next;
  }
}

/**
 * The share of sky in each sky pixel, by linear unmixing: a pixel's distance from the sky model over the distance of
 * the most foreground-like pixel near it (a twig, a roof edge) — a pixel halfway between the two is half sky. This is
 * what lets a 1-pixel twig or a mixed roof-edge pixel keep its own partial value instead of snapping to 0 or 1.
 * Distances under `noiseFloor` are the sky's own grain and count as pure sky.
 */
function unmixedSkyShare(mask: Uint8Array, distance: Float32Array, width: number, height: number, settings: typeof DEFAULTS): Float32Array {
  const foreground = localMax(distance, width, height, settings.unmixRadius);
  const share = new Float32Array(mask.length);
  const floor = settings.noiseFloor;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const span = Math.max(foreground[i]! - floor, MIN_UNMIX_SPAN);
    share[i] = Math.min(1, Math.max(0, 1 - (distance[i]! - floor) / span));
  }
  return share;
}

/**
 * The sky that is replaced, from the sky-like region the classifier judged (whose pieces are part of the evidence
 * that it is, or is not, a sky): the sky seen beside and below what stopped the walk from the top (extendSkyBeside),
 * then one sky (keepOneSky).
 */
export function refineSky(planes: ColourPlanes, segmentation: SkySegmentation, options: SkySegmentationOptions = {}): SkySegmentation {
  const { width, height } = planes;
  const mask = segmentation.mask.slice();
  extendSkyBeside(planes, segmentation.reachable, mask, options.skyline);
  // Also after a cut at hazy edges (replaceSky), which leaves a column walked past a faint corner on its own.
  dropNarrowStrips(mask, width, height, NARROW_STRIP_RADIUS);
  keepOneSky(planes, mask);
  if (mask.every((value, i) => value === segmentation.mask[i])) return segmentation;
  const { reachable, cues, barriers } = segmentation;
  return finishSegmentation(planes, mask, reachable, cues, barriers, { ...DEFAULTS, ...options });
}

/**
 * Share of a piece's pixels that must be textured (cue texture ≥ veilTexture) for it to be a veil of twigs (with
 * the open sky below the crown that it encloses): 0.82 in the crown of grey_bare_tree_branches_07, 0.34 around a
 * drawn tree of the tests whose crown leaves much open sky beside the trunk; a smooth wall under a parapet has none.
 */
const VEIL_TEXTURED_SHARE = 0.25;
/** Radius, in working pixels, searched for the open sky between the twigs of a veil. */
const VEIL_GAP_RADIUS = 2;
/**
 * Largest luma difference between the brightest pixel near a pixel of a veil and the open sky's model there, for
 * three quarters of the veil's pixels: the sky seen between the twigs is the open sky. 0.029 in the crown of
 * grey_bare_tree_branches_07, 0.031 in the pockets of its crown's centre, where the twigs are densest; the pale stone
 * facades of grey_street_crosswalk_haze_05, which the veil flood also reaches, measure 0.07 and 0.12.
 */
const VEIL_GAP_TOLERANCE = 0.04;
/**
 * Smallest share of the image the open sky (the walked sky) must cover for a veil to be judged against its model:
 * 0.17 over the crown of grey_bare_tree_branches_07, 0.45 over outdoor_grey_sky_branches_06; 0.02 and 0.01 of sky
 * through the leafy canopies of edge_exif_orient3_02 and edge_exif_orient6_01, whose leaves took a blue cast.
 */
const VEIL_MIN_OPEN_SKY = 0.1;
/**
 * Largest share of the frame that the rectilinear cells of the sky added through a veil (pieces and pockets) may cover
 * (see facadeStructure: window frames, siding): a facade is straight edges along rows and columns, a crown's twigs go
 * every way. Bare crowns: 0 in grey_bare_tree_branches_07 and outdoor_grey_sky_branches_06 (also at 12 MP), 0.28 % at
 * most in the crowns of exterior_grey_sky_house_02 (12 MP), 0 in the canopies of the EXIF photos, of
 * blue_white_building_branches_16 and edge_webp_outdoor_05; 0.84 % round the drawn tree of the tests, whose trunk is
 * ruler-straight and stands on a level ground line. Facades the floods reach below the walk on the shared photos: 7.1 %
 * (grey_rowhouses_white_sky_02), 6.5 % (grey_white_apartments_white_sky_03), 6.4 % (blue_mint_tower_12), 4.5 %
 * (grey_street_road_markings_04), 3.5 % (cars_street_shop_08), 2.25 % (the larger facade piece of
 * grey_street_crosswalk_haze_05); the drawn walls of the sky's white of the tests 5.1–6.8 % with windows, 8.7 % with
 * siding (a plain one, 1.0 %, is left to its panel, below). Measured on what the floods reached below the walk, also
 * where the step does not run. Set between, nearer the crowns: a declined veil costs a miss, a painted wall is the
 * worst error there is.
 */
const VEIL_MAX_RECTILINEAR_CELLS = 0.015;
/**
 * Largest share of straight sides (along rows and columns, see straightSideShare) of the pieces of the sky added
 * through a veil and of the smooth panels inside them (at least 0.3 % of the frame each): a wall between its windows
 * is a panel framed by straight sides, the sky between twigs a pocket whose sides step at every pixel. Bare crowns:
 * 0.31 in grey_bare_tree_branches_07, 0.29 in outdoor_grey_sky_branches_06, 0.20 at most in
 * exterior_grey_sky_house_02, 0.47 in blue_white_building_branches_16, 0.53 round the drawn tree of the tests (its
 * ruler-straight trunk and level ground). Walls and facades the floods reach: 0.96 (the white wall of
 * exterior_blue_sky_street_07), 0.67 and 0.66 (the painted houses of blue_painted_ladies_11, the pale tower of
 * blue_mint_tower_12), the walls of the interiors 0.61–0.98; the drawn walls of the sky's white of the tests
 * 0.83–0.98, plain or with windows. Walls whose panels are broken up (grey_white_apartments_white_sky_03, 0.33; the
 * drawn one with siding, 0.54) are left to the cells above.
 */
const VEIL_MAX_PANEL_STRAIGHTNESS = 0.6;

/**
 * The sky seen through bare crowns below the walk from the top (which stops at the first twig): each piece of what
 * the floods reached below it (`reachable`, see growThroughVeil) that is a veil — mostly textured, and with the open
 * sky's own colour between its twigs (VEIL_GAP_TOLERANCE) — joins the walked sky, and the whole is unmixed against
 * the open sky's model, so that each twig keeps its share (see unmixedSkyShare; the matte refines it at full
 * resolution). A smooth wall under a parapet is no veil, and a facade of windows has its own colour between them.
 * Returns null when nothing below the walk is a veil, the open sky is too small to judge one by (VEIL_MIN_OPEN_SKY),
 * what would be added has a facade's structure, whatever its colour (VEIL_MAX_RECTILINEAR_CELLS,
 * VEIL_MAX_PANEL_STRAIGHTNESS: a wall of the sky's own white with windows, behind a gap in its parapet), or the whole
 * is not one sky (VEIL_MAX_OFF_SKY). Whether the whole is a sky that ends at a crisp skyline is for the caller to
 * judge.
 */
export function skyThroughVeil(planes: ColourPlanes, walked: SkySegmentation, options: SkySegmentationOptions = {}): SkySegmentation | null {
  const settings = { ...DEFAULTS, ...options };
  const { width, height } = planes;
  if (walked.mask.reduce((sum, value) => sum + value, 0) < VEIL_MIN_OPEN_SKY * width * height) return null;
  const radius = Math.max(2, Math.round(settings.skyModelRadiusFraction * Math.max(width, height)));
  const openSky = fitSkyModel(planes, walked.mask, radius);
  const openLuma = lumaOf(openSky);
  const brightest = localMax(lumaOf(planes), width, height, VEIL_GAP_RADIUS);
  const below = new Uint8Array(walked.mask.length);
  for (let i = 0; i < below.length; i++) below[i] = walked.reachable[i] && !walked.mask[i] ? 1 : 0;
  const mask = walked.mask.slice();
  let veiled = false;
  for (const { pixels } of connectedComponents(below, width, height)) {
    let textured = 0;
    const gaps: number[] = [];
    for (const i of pixels) {
      if (walked.cues.texture[i]! >= settings.veilTexture) textured++;
      gaps.push(Math.abs(openLuma[i]! - brightest[i]!));
    }
    gaps.sort((a, b) => a - b);
    if (textured < VEIL_TEXTURED_SHARE * pixels.length || gaps[Math.floor(0.75 * (gaps.length - 1))]! > VEIL_GAP_TOLERANCE) continue;
    for (const i of pixels) mask[i] = 1;
    veiled = true;
  }
  if (!veiled) return null;
  // The sky between the twigs, the brightest pixel around, is the sky to expect below the open sky, which pales
  // toward the horizon: the pockets are judged by it, and the old sky the matte unmixes from is modelled on it.
  const luma = lumaOf(planes);
  const clearSky = (): Uint8Array => mask.map((value, i) => (value && luma[i]! >= brightest[i]! - CLEAR_SKY_MARGIN ? 1 : 0));
  addPocketsInVeil(planes, walked, mask, fitSkyModel(planes, clearSky(), radius), brightest, settings);
  // A wall is no crown, whatever its colour: a wall of the sky's own white, with windows or siding to pass for
  // textured, has the sky's colour between its window frames, and the floods reach it through any gap in its parapet.
  const added = mask.map((value, i) => (value && !walked.mask[i] ? 1 : 0));
  const structure = facadeStructure(planes, added, walked.cues.texture, settings.veilTexture);
  const facade = structure.rectilinearCells > VEIL_MAX_RECTILINEAR_CELLS || structure.straightestPanel > VEIL_MAX_PANEL_STRAIGHTNESS;
  if (facade) return null;
  const before = mask.reduce((sum, value) => sum + value, 0);
  keepOneSky(planes, mask);
  // A veil that is not one sky would be replaced in part, leaving old sky beside the new one behind the same crown.
  if (mask.reduce((sum, value) => sum + value, 0) < (1 - VEIL_MAX_OFF_SKY) * before) return null;
  return finishSegmentation(planes, mask, walked.reachable, walked.cues, walked.barriers, settings, clearSky());
}

/**
 * The walked sky (see segmentSky) with the sky beyond thin lines across it: overhead wires and a signal arm, which the
 * walk from the top stops at (see walkAcrossWires); narrow strips dropped as after the walk. Null when no line was
 * stepped over. Also the lines stepped over (see bridgeLines). Whether the whole is a grey sky that ends at a crisp
 * skyline is for the caller to judge, as with skyThroughVeil; the sky beside and one sky are refineSky's.
 */
export function skyAcrossWires(
  planes: ColourPlanes,
  walked: SkySegmentation,
  options: SkySegmentationOptions = {},
): { segmentation: SkySegmentation; lines: Uint8Array } | null {
  const { width, height } = planes;
  // From the one sky only: a pale lamp post that reaches the top border is walked down as if it were sky (see
  // keepOneSky), and beyond the bracket across it the same post goes on, in the post's own colour.
  const oneSky = walked.mask.slice();
  keepOneSky(planes, oneSky);
  const { mask, lines } = walkAcrossWires(planes, walked.reachable, oneSky, options.skyline);
  dropNarrowStrips(mask, width, height, NARROW_STRIP_RADIUS);
  if (mask.every((value, i) => value <= oneSky[i]!)) return null;
  const segmentation = finishSegmentation(planes, mask, walked.reachable, walked.cues, walked.barriers, { ...DEFAULTS, ...options });
  return { segmentation, lines };
}

/**
 * Largest share of the sky with its veil that one sky (keepOneSky) may drop: 0.007 of the crown of
 * grey_bare_tree_branches_07; 0.29 of the sky through the bare trees of exterior_grey_sky_house_02 enlarged to 12 MP,
 * where the sky on one side of the house would have stayed white beside a blue one on the other.
 */
const VEIL_MAX_OFF_SKY = 0.05;
/** A pixel of the sky this close (luma) to the brightest pixel around it is sky between twigs, not a twig's mixture. */
const CLEAR_SKY_MARGIN = 0.01;
/**
 * Working pixels between a pocket of sky and the veil around it: the limbs that cut it off from the flood, 7–9 working
 * pixels thick around the pockets of grey_bare_tree_branches_07 (at 6 its largest pockets stayed old sky).
 */
const POCKET_REACH = 10;

/**
 * Pockets of sky inside a crown that no flood reached, as the limbs around them are long and straight enough to be
 * barriers (see detectStraightEdges): a piece of sky-like pixels (cue likelihood ≥ candidateThreshold) or of veil
 * (textured and within veilTolerance of the open sky, as in growThroughVeil) next to the veil (within POCKET_REACH)
 * joins when the brightest pixel near three quarters of its pixels has the open sky's luma (VEIL_GAP_TOLERANCE).
 * Changes `mask` in place.
 */
function addPocketsInVeil(
  planes: ColourPlanes,
  walked: SkySegmentation,
  mask: Uint8Array,
  openSky: ColourPlanes,
  brightest: Float32Array,
  settings: typeof DEFAULTS,
): void {
  const { width, height } = planes;
  const veil = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) veil[i] = mask[i] && !walked.mask[i] ? 1 : 0;
  const nearVeil = dilateSquare(veil, width, height, POCKET_REACH);
  const distance = distanceToSky(planes, openSky, 1);
  const openLuma = lumaOf(openSky);
  const pockets = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    const veiled = walked.cues.texture[i]! >= settings.veilTexture && distance[i]! <= settings.veilTolerance;
    pockets[i] = !mask[i] && (walked.cues.likelihood[i]! >= settings.candidateThreshold || veiled) ? 1 : 0;
  }
  // Closed, as in the floods, so that a pocket is not cut into crumbs by its own twigs.
  const closed = closeMask(pockets, width, height, settings.bridgeRadius);
  for (let i = 0; i < closed.length; i++) if (mask[i]) closed[i] = 0;
  for (const { pixels } of connectedComponents(closed, width, height)) {
    if (!pixels.some((i) => nearVeil[i])) continue;
    const own = pixels.filter((i) => pockets[i]);
    const gaps = own.map((i) => Math.abs(openLuma[i]! - brightest[i]!)).sort((a, b) => a - b);
    if (gaps.length === 0 || gaps[Math.floor(0.75 * (gaps.length - 1))]! > VEIL_GAP_TOLERANCE) continue;
    for (const i of own) mask[i] = 1;
  }
}

/**
 * Largest difference (sRGB 0…1, any channel) between the mean colour of a separate piece of sky and the colour the
 * main sky has at the same place: the second flood's `gapTolerance`, for the same reason (a smooth surface a little
 * off the sky's colour is a wall, not sky).
 */
const ONE_SKY_TOLERANCE = 0.06;

/**
 * One sky: every separate piece of the sky (4-connected) must have the colour the largest piece has where it lies,
 * extrapolated by a plane through each channel of the largest piece. The column walk goes down any light, smooth
 * column that reaches the top border, so in a street canyon cut by the frame a cream pilaster between two rows of
 * windows, a concrete tower face, a pale lamp post or a white banner passes for sky on its own: none of them has the
 * colour of the open sky beside it (an overcast sky changes slowly across the frame), and they are dropped. Sky seen
 * between the branches of one crown, or on both sides of a tower, has the same colour on either side and stays.
 */
export function keepOneSky(planes: ColourPlanes, mask: Uint8Array): void {
  const { width, height } = planes;
  const pieces = connectedComponents(mask, width, height);
  if (pieces.length < 2) return;
  let main = pieces[0]!;
  for (const piece of pieces) if (piece.pixels.length > main.pixels.length) main = piece;
  const mainMask = new Uint8Array(mask.length);
  for (const i of main.pixels) mainMask[i] = 1;
  const channels = [planes.r, planes.g, planes.b];
  const fits = channels.map((plane) => planarFit(plane, mainMask, width, height));
  for (const piece of pieces) {
    if (piece === main) continue;
    let off = 0;
    for (let c = 0; c < 3; c++) {
      let difference = 0;
      for (const i of piece.pixels) {
        const x = i % width;
        difference += channels[c]![i]! - fits[c]!(x, (i - x) / width);
      }
      off = Math.max(off, Math.abs(difference / piece.pixels.length));
    }
    if (off > ONE_SKY_TOLERANCE) for (const i of piece.pixels) mask[i] = 0;
  }
}

/** Sky runs narrower than 2 · 2 + 1 working columns (under 1 % of the width) are dropped: see dropNarrowStrips. */
const NARROW_STRIP_RADIUS = 2;

/** Below this, the "foreground" near a pixel is only the sky's own variation, and unmixing would amplify noise. */
const MIN_UNMIX_SPAN = 0.15;

/**
 * The row above which `fraction` of the sky-bearing columns have their lowest sky pixel: the horizon as the bulk
 * of the sky sees it, robust to a few columns of sky that reach down between houses. −1 when there is no sky.
 */
export function lowestSkyRow(mask: Uint8Array, width: number, height: number, fraction: number): number {
  const bottoms: number[] = [];
  for (let x = 0; x < width; x++) {
    for (let y = height - 1; y >= 0; y--) {
      if (mask[y * width + x]) {
        bottoms.push(y);
        break;
      }
    }
  }
  if (bottoms.length === 0) return -1;
  bottoms.sort((a, b) => a - b);
  return bottoms[Math.min(bottoms.length - 1, Math.floor(fraction * bottoms.length))]!;
}
