import { downsampleToPlanes, type ColourPlanes } from '../../vision/colour-planes.js';
import { LINEAR_OF_BYTE, LUMINANCE_WEIGHTS } from '../../vision/colour.js';
import { estimateNoiseLevel } from '../../vision/differential-composite.js';
import { paintRegionMask } from '../../vision/declutter/region-mask.js';
import { dilateRound } from '../../vision/declutter/mask-shapes.js';
import { dilateSquare, maskBounds } from '../../vision/mask-morphology.js';
import { connectedComponents } from '../../vision/connected-components.js';
import { boxMean } from '../../vision/box-filter.js';
import { fillPolygon, polygonMask } from '../../vision/polygon-mask.js';
import type { RawImage } from '../../vision/raw-image.js';
import { CEILING, FACE_LABELS, FLOOR, WALL_BACK, WALL_FRONT, WALL_LEFT, WALL_RIGHT } from '../../vision/geometry/room-box.js';
import { floorSampler } from '../../vision/restyle/floor-materials.js';
import type { FloorMaterial } from '../../catalog/floor-materials.js';
import { linearOfHex } from '../../vision/restyle/hex-colour.js';
import { floorShading, relayFloor } from '../../vision/restyle/relay-floor.js';
import { lightTint, repaintWalls } from '../../vision/restyle/repaint-walls.js';
import { albedoOf, estimateSceneLight, type SceneLight } from '../../vision/restyle/scene-light.js';
import { resizeToLongSide } from '../../vision/geometry/resample.js';
import { surfaceMask, type SurfaceMask } from '../../vision/restyle/surface-mask.js';
import { surfaceMatte, surfaceShading } from '../../vision/restyle/surface-matte.js';
import { findTrimLines } from '../../vision/restyle/trim-lines.js';
import { floorCoverage, type GridMask } from '../../vision/restyle/floor-coverage.js';
import { VISIBLE_CLASSES, type RoomSegmentation } from '../../vision/geometry/room-segmentation.js';
import { looksLikeItsWall } from '../../vision/restyle/plain-openings.js';
import { frameMargin } from '../../vision/geometry/opening-frames.js';
import { analysisBox, analysisCamera, layoutLabels, type RoomAnalysis } from '../geometry/analyze-room.js';
import { horizonCells, layoutReport, missingFloor, networkContradicts, unsureLayout } from '../geometry/layout-trust.js';
import { REMOVABLE_LABELS, type ObjectDetectors } from '../declutter/detect-objects.js';
import { findCandidatesIn } from '../declutter/remove-automatic.js';
import { alongWall, pointOnWall, projectWorld, type WallLabel } from '../../staging/room-model.js';
import { analyzeWithSecondOpinion, answeringOncePerPhoto, type ChosenLines } from '../operations/line-source-choice.js';
import { stepTimer } from '../step-timer.js';

/** What to do: a paint on the walls (an sRGB colour) or a floor material. */
export type RefreshRequest =
  | { transformation: 'walls'; value: string; paint: string }
  | { transformation: 'floor'; value: string; material: FloorMaterial; seed: number };

/**
 * Why the photo came back as it was:
 * - `layout_uncertain`: the geometry analysis is not confident enough of the room's box to say where walls and
 *   floor are;
 * - `no_walls_in_view`, `no_floor_in_view`: the layout shows too little of them;
 * - `walls_not_recognised`, `floor_not_recognised`: too little of what the layout calls walls (floor) looks like one
 *   paint (one floor): tiles, cabinets, furniture or clutter cover it, or the layout is wrong there;
 * - `room_furnished` (walls): so much stands in the room (the floor covered or the walls hidden by furniture and
 *   objects, or a rug on the floor) that what stands before the walls cannot be told from them everywhere;
 * - `surface_cluttered` (floor): furniture, objects or a rug cover too much of the floor, or what could be relaid is
 *   in pieces: a new floor around them would look patched;
 * - `walls_patchy` (walls): the paint would be a patchwork: a wall face would keep much of its old paint beside the
 *   new one, or the paint's border would run ragged through the walls (see wallPatchiness);
 * - `floor_incomplete` (floor): the new floor would stop short of floor the room network sees (a wall the layout
 *   misplaced, the floor going on past a partition): the old floor would run on beside the new one;
 * - `floor_unchecked` (floor): the room network did not run, so nothing can tell whether the new floor would reach all
 *   of the floor seen.
 */
export type RefreshUnchangedReason =
  | 'layout_uncertain'
  | 'no_walls_in_view'
  | 'no_floor_in_view'
  | 'walls_not_recognised'
  | 'floor_not_recognised'
  | 'room_furnished'
  | 'surface_cluttered'
  | 'walls_patchy'
  | 'floor_incomplete'
  | 'floor_unchecked';

export interface RefreshDeps {
  /**
   * The lines the refresh analyses the photo with; with the room network in them, its box comes first. A floor is
   * relaid only with the network: what it sees as floor is what the new floor must reach.
   */
  lines: ChosenLines;
  /** The declutter's detectors: furniture and objects they find are never repainted or covered by the new floor. */
  detectors?: ObjectDetectors;
  /**
   * This photo's room as an earlier step already analysed it (the redesign's: removing furniture moves no wall, floor
   * or camera); the refresh analyses the photo itself when it is absent.
   */
  analysis?: RoomAnalysis;
  /**
   * The photo's light as an earlier step estimated it (the redesign's walls step, before it repainted the walls the
   * light is judged on); the refresh estimates it itself when it is absent.
   */
  light?: SceneLight;
  signal?: AbortSignal;
  progress?: (fraction: number) => void;
}

export interface RefreshedPhoto {
  image: RawImage;
  /** 255 where the output may differ from the photo; absent when the photo came back unchanged. */
  changeMask?: Uint8Array;
  result: { refresh: Record<string, unknown> };
  /** The light the new surface was lit by; absent when the photo came back unchanged. */
  light?: SceneLight;
  /** For benchmarks: the analysis, the surface at the working size, and the photo's windows and doors. */
  analysis: RoomAnalysis;
  surface?: SurfaceMask;
  openings: Uint8Array;
}

/**
 * Least share of the photo the surface's layout faces must cover. The floor's is higher: a layout that shows a sliver
 * of floor in a photo of a room has most often misplaced it, and a new floor on part of the old one is a patchwork.
 */
const MIN_FACE_SHARE = { walls: 0.04, floor: 0.08 };
/** Least share of the faces' unforbidden cells that must look like the surface. */
const MIN_KEPT_SHARE = 0.25;
/** Largest share of the floor that may pass for wall paint. */
const MAX_CONFUSION = 0.5;
/** Robust distance within which a cell looks like the floor. */
const FLOOR_THRESHOLD = 4.5;
/** Longer side of the working copy the masks and the light are computed on. */
const WORKING_SIZE = 1024;
/**
 * Uncertain band along the layout's borders with other surfaces, as a share of the working copy's longer side: past
 * it lies a ceiling that may be painted like the walls, or a skirting whose edges pass for a floor's texture.
 */
const BORDER_BAND = 0.012;
/** Openings closer than this many frame margins are parts of one window (see forbiddenCells). */
const WINDOW_GROUP_REACH = 3;
/** Inner ramp of the matte, in working cells. */
const FEATHER = 1.5;
/**
 * Labels kept out besides the declutter's own (REMOVABLE_LABELS), at the declutter's scores: furniture, people and
 * what hangs on or stands against walls, and the microwave, which the declutter keeps as a fixture but which is no
 * wall to paint. Everything the declutter would remove is kept out of the change.
 */
const KEPT_OBJECTS = ['chair', 'couch', 'bed', 'dining table', 'bench', 'potted plant', 'person', 'dog', 'cat', 'tv', 'clock', 'table', 'desk', 'box', 'computer monitor', 'microwave'];
/**
 * A room's limits for a refresh (measured on the shared photos, bench/refresh.ts; see docs/api.md): the share of the
 * layout's floor that what the declutter would remove covers (empty rooms up to 0.24, a cluttered living room 0.92),
 * the share of the walls it covers (empty rooms up to 0.12, the cluttered living room 0.27), the least share of the
 * floor the largest relaid piece must hold (empty rooms 0.76 and up, the cluttered living room 0.07).
 */
const MAX_FLOOR_OBJECT_SHARE = 0.4;
const MAX_WALL_OBJECT_SHARE = 0.2;
const MIN_FLOOR_MAIN_SHARE = 0.6;
/**
 * A floor look this many of the dominant look's spreads from it is something lying on the floor (a rug), not a tone of
 * the floor (the tones of the shared empty rooms' floors lie up to 6.9 apart)...
 */
const FOREIGN_LOOK_APART = 10;
/** ... and such looks may make up at most this share of the floor's interior. */
const MAX_FOREIGN_LOOK_SHARE = 0.1;
/**
 * Most of the floor the room network sees that a relaid floor may leave as it was, the least share of the relaid
 * floor the network must see as floor (floorCoverage), and the tolerance along the two masks' borders as a share of
 * the network's longer side. Set on the shared photos (bench/refresh.ts, bench/redesign.ts, docs/decisions/0025): the
 * relays that left none of it were whole; those that left 1.4 % and 1.6 % kept patches of the old floor at a door's
 * threshold and a pillar's foot, plain under a pale oak or a concrete laid on a dark wood; the patchworks left 4.2 % and
 * more. Whole relays lay at least 98 % on the floor seen; one over a glossy wood the network calls furniture in part
 * lay 66 % on it, and also covered a pillar's foot with a ragged edge; one over a white floor the network does not see
 * as floor 0 %, its edge ragged.
 */
const MAX_FLOOR_LEFT = 0.01;
const MIN_RELAID_ON_FLOOR = 0.9;
const FLOOR_EDGE_TOLERANCE = 0.008;
/**
 * Most of the relaid floor's edge along which the floor seen may go on, FLOOR_EDGE_DEPTH of the network's longer side
 * out (floorCoverage's openEdgeShare): past it the old floor shows as a strip along the new one. Set on the shared
 * photos (docs/decisions/0025): the whole relays' edges are 1.7 % and 3.7 % open; a tile laid on empty_living_05,
 * which left 0.1 % of the floor's area, left a ragged strip of its dark boards along a kitchen counter's foot, 16.8 %
 * of its edge; the relays the other checks refuse are 39–61 % open.
 */
const MAX_OPEN_EDGE = 0.1;
const FLOOR_EDGE_DEPTH = 0.005;
/** A detector box over this share of the photo is the detector seeing the room itself as furniture. */
const MAX_OBJECT_SHARE = 0.5;

/**
 * A paint's largest spreads: brightness against the local light, warmth, tint (log units), log texture. Warmth is
 * given more: it is the axis along which the light's colour moves (warm bounce from a wooden floor, blue shade).
 */
const WALL_MAX_SPREAD = [0.4, 0.12, 0.03, 0.6] as const;
/** Least floor share the layout of a photo that looks down at the floor must show (missingFloor). */
const MIN_FLOOR_SHARE = 0.02;

const WALL_FACES = [WALL_LEFT, WALL_FRONT, WALL_RIGHT, WALL_BACK];
/**
 * The final check of the walls' paint (wallPatchiness; measured on the shared photos, bench/refresh.ts, see
 * docs/api.md): a wall face holding at least PATCHY_FACE_MIN_SHARE of the paintable wall, painted more than
 * MIN_PATCHY_FACE_SHARE of it but leaving more than MAX_UNPAINTED_FACE_SHARE of it in the old paint, is a patchwork
 * (clean repaints leave at most 0.083 of a face; the patchy ones 0.119 — a kitchen's back wall, cabinets and
 * bulkhead half taken —, 0.132, 0.22 and more); so is a painted mask whose border is more than MAX_RAGGEDNESS times as
 * long as its smoothed version's (clean repaints up to 1.26, the ragged ones 1.31 and up). Both margins are narrow:
 * seven photos set them.
 */
const PATCHY_FACE_MIN_SHARE = 0.1;
const MIN_PATCHY_FACE_SHARE = 0.2;
const MAX_UNPAINTED_FACE_SHARE = 0.1;
const MAX_RAGGEDNESS = 1.29;
/** Smoothing radius of the raggedness' smoothed mask, as a share of the working copy's longer side. */
const RAGGED_RADIUS = 0.01;
/** Islands of old paint (reported, not judged): least size as a share of the paintable cells, and painted border share. */
const ISLAND_MIN_SHARE = 0.002;
const ENCLOSED_BORDER = 0.75;

/**
 * POST /v1/refresh: the walls repainted or the floor relaid, nothing else changed. The room's geometry says where
 * the walls and floor are (refined by their look, see vision/restyle/surface-mask.ts), windows, doors with their frames
 * and the furniture the detectors find are kept out, and the new surface is lit by the photo's own light. When the
 * geometry is not confident, or too little of the surface can be told apart, the photo is returned unchanged with the
 * reason: a wrongly painted room is worse than none.
 */
export async function refreshPhoto(image: RawImage, request: RefreshRequest, deps: RefreshDeps): Promise<RefreshedPhoto> {
  const timer = stepTimer(deps.signal);
  const progress = deps.progress ?? (() => {});
  const walls = request.transformation === 'walls';
  // The network answers once per photo: the floor's check below asks it about the analysis's own working copy.
  const lines = answeringOncePerPhoto(deps.lines);
  // The lines' box, or, where the room network is in the lines, its box first (at 0.6, showing the floor a photo looking
  // down must show), as the whole-room stagings take it (docs/decisions/0021, 0022).
  const { analysis, networkDoubt } = deps.analysis
    ? { analysis: deps.analysis }
    : await analyzeWithSecondOpinion(image, lines, (network) => missingFloor(network, MIN_FLOOR_SHARE), deps.signal);
  timer.lap('analysis');
  progress(0.3);
  const openings = polygonMask(image.width, image.height, analysis.openings.map((o) => o.polygon));
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const report: Record<string, unknown> = {
    transformation: request.transformation,
    value: request.value,
    ...(walls ? { paint: request.paint } : { material: { id: request.material.id, description: request.material.description, seed: request.seed } }),
    lines: deps.lines.name,
    layoutConfidence: round(analysis.confidence.layout),
    layout: layoutReport(analysis, networkDoubt),
  };
  const unchanged = (reason: RefreshUnchangedReason, detail: string, surface?: SurfaceMask): RefreshedPhoto => ({
    image,
    result: { refresh: { ...report, unchanged: true, unchangedReason: reason, unchangedDetail: detail, changedPixels: 0, milliseconds: timer.report() } },
    analysis,
    ...(surface ? { surface } : {}),
    openings,
  });

  // What the room network sees as floor is what a new floor must reach: without it, no floor is relaid.
  const floorNetwork = walls ? undefined : lines.roomNetwork;
  if (!walls && !floorNetwork) return unchanged('floor_unchecked', 'the room network did not run: nothing can tell whether a new floor would reach all of the floor in the photo');
  const doubt = unsureLayout(analysis) ?? missingFloor(analysis, MIN_FLOOR_SHARE) ?? networkContradicts(analysis);
  if (doubt) return unchanged('layout_uncertain', doubt);
  const faceLabels = walls ? ['wall-left', 'wall-front', 'wall-right', 'wall-back'] : ['floor'];
  const faceShare = analysis.layout.faces.filter((f) => faceLabels.includes(f.label)).reduce((sum, f) => sum + f.share, 0);
  if (faceShare < MIN_FACE_SHARE[request.transformation]) {
    return unchanged(walls ? 'no_walls_in_view' : 'no_floor_in_view', `the layout's ${walls ? 'walls cover' : 'floor covers'} ${(100 * faceShare).toFixed(1)} % of the photo`);
  }

  const planes = downsampleToPlanes(image, WORKING_SIZE);
  const { width, height } = planes;
  const scale = image.width / width;
  const labels = layoutLabels(analysis, width, height);
  const objects = deps.detectors ? await objectsMask(image, analysis, deps.detectors, deps.signal) : undefined;
  timer.lap('objects');
  progress(0.6);
  const camera = analysisCamera(analysis);
  const workingCamera = { ...camera, width, height, focal: camera.focal / scale, cx: camera.cx / scale, cy: camera.cy / scale };
  const faces = walls ? WALL_FACES : [FLOOR];
  const belowHorizon = horizonCells(analysis, width, height);
  const band = Math.round(BORDER_BAND * Math.max(width, height));
  const floorOptions = { band, localLook: false, clusters: 4, threshold: FLOOR_THRESHOLD, minPieceShare: 0.01, rivals: WALL_FACES, edgeStep: 0.06 };
  const wallOptions = { band, localLook: true, clusters: 1, threshold: 4, minPieceShare: 0.004, maxSpread: WALL_MAX_SPREAD, rivals: [FLOOR], belowHorizon, edgeStep: 0.06, smoothIsSurface: true, closeAroundFixtures: true, closeNotches: true };
  const { forbidden, likeWall } = forbiddenCells(analysis, planes, labels, scale, objects);
  // Skirting boards and cornices, white on a white wall as often as not, are told apart by their edge's height; they
  // are neither wall to paint nor floor to cover.
  const trims = findTrimLines(logLuminance(planes), labels, forbidden, workingCamera, analysisBox(analysis));
  for (let i = 0; i < forbidden.length; i++) forbidden[i] = forbidden[i]! | trims.mask[i]!;
  const floorSurface = surfaceMask({ planes, labels, faces: [FLOOR], forbidden }, floorOptions);
  const surface = walls ? surfaceMask({ planes, labels, faces, forbidden }, wallOptions) : floorSurface;
  // An opening only the network saw, as plain as the wall around it, that the paint would surround: kept out, a patch
  // of old paint in the new one; painted over, it may be a door as white as the wall (enclosedInPaint).
  const patchLike = walls ? likeWall.filter((grown) => enclosedInPaint(grown, surface.mask, labels, forbidden, width, band)) : [];
  report.trim = {
    skirting: Object.fromEntries([...trims.skirting].map(([face, h]) => [FACE_LABELS[face], h])),
    cornice: Object.fromEntries([...trims.cornice].map(([face, h]) => [FACE_LABELS[face], h])),
  };
  timer.lap('surface');
  const objectCells = objects ? gridOf(objects, analysis, width, height) : new Uint8Array(width * height);
  const layout = layoutMeasures(surface, labels, faces, objectCells);
  const floorLayout = walls ? layoutMeasures(floorSurface, labels, [FLOOR], objectCells) : layout;
  const floorForeign = foreignLookShare(floorSurface);
  report.surface = {
    faceShare: round(faceShare),
    keptShare: round(surface.keptShare),
    ...(walls ? { floorLikeWall: round(surface.confusion) } : {}),
    objectShare: round(layout.objectShare),
    mainShare: round(layout.mainShare),
    worstFaceMain: round(layout.worstFaceMain),
    pieces: layout.pieces,
    looks: surface.looks.map((l) => [round(l.share), round(l.apart)]),
    floorObjectShare: round(floorLayout.objectShare),
    floorMainShare: round(floorLayout.mainShare),
    floorForeignLook: round(floorForeign),
  };
  const patch = walls ? wallPatchiness(surface, labels, forbidden, objectCells) : undefined;
  if (patch) {
    report.patchiness = {
      faces: Object.fromEntries(patch.faces.map((f) => [f.face, round(f.painted)])),
      worstFaceUnpainted: round(patch.patchyFace),
      islands: patch.islands,
      islandShare: round(patch.islandShare),
      raggedness: round(patch.raggedness),
    };
  }
  // What stands in the room: the floor the declutter would clear, a rug or a second floor on it, the walls hidden.
  // Past these the engine cannot tell the surface from what stands on or before it well enough, and what it could
  // change would be a patchwork.
  const floorCluttered =
    floorLayout.objectShare > MAX_FLOOR_OBJECT_SHARE
      ? `objects, furniture or clutter cover ${(100 * floorLayout.objectShare).toFixed(0)} % of the floor (at most ${100 * MAX_FLOOR_OBJECT_SHARE} %)`
      : floorForeign > MAX_FOREIGN_LOOK_SHARE
        ? `${(100 * floorForeign).toFixed(0)} % of the floor has a look of its own, far from the floor's (a rug, or a second floor; at most ${100 * MAX_FOREIGN_LOOK_SHARE} %)`
        : undefined;
  if (walls) {
    const reason =
      floorCluttered ??
      (layout.objectShare > MAX_WALL_OBJECT_SHARE
        ? `furniture and objects stand before ${(100 * layout.objectShare).toFixed(0)} % of the walls (at most ${100 * MAX_WALL_OBJECT_SHARE} %)`
        : undefined);
    if (reason) return unchanged('room_furnished', `${reason}: what stands before the walls cannot be told from them everywhere`, surface);
  } else {
    const reason =
      floorCluttered ??
      (layout.mainShare < MIN_FLOOR_MAIN_SHARE
        ? `the floor that can be relaid is in pieces: the largest holds ${(100 * layout.mainShare).toFixed(0)} % of the floor (at least ${100 * MIN_FLOOR_MAIN_SHARE} %)`
        : undefined);
    if (reason) return unchanged('surface_cluttered', `${reason}: a floor relaid around them would look patched`, surface);
  }
  if (walls && surface.confusion > MAX_CONFUSION) {
    return unchanged(
      'walls_not_recognised',
      `the walls look like the floor (${(100 * surface.confusion).toFixed(0)} % of the floor would pass for wall): the paint could not be kept off the floor`,
      surface,
    );
  }
  if (surface.keptShare < MIN_KEPT_SHARE) {
    return unchanged(
      walls ? 'walls_not_recognised' : 'floor_not_recognised',
      `${(100 * surface.keptShare).toFixed(0)} % of what the layout calls ${walls ? 'walls looks like one paint' : 'floor looks like one floor'} (at least ${100 * MIN_KEPT_SHARE} % needed)`,
      surface,
    );
  }
  if (patchLike.length > 0) {
    return unchanged(
      'walls_patchy',
      `${patchLike.length === 1 ? 'a window or door' : `${patchLike.length} windows or doors`} only the room network sees on the walls, as plain as the wall around ${patchLike.length === 1 ? 'it' : 'them'}, would stand as a patch of old paint in the new one; painted over, ${patchLike.length === 1 ? 'it' : 'one'} may be a door as white as the wall`,
      surface,
    );
  }
  // The final check: a repaint that leaves old paint in patches on a face, or whose border runs ragged through the
  // walls (trims, cabinets, a cove light half taken), is worse than none.
  if (patch && (patch.patchyFace > MAX_UNPAINTED_FACE_SHARE || patch.raggedness > MAX_RAGGEDNESS)) {
    return unchanged(
      'walls_patchy',
      patch.patchyFace > MAX_UNPAINTED_FACE_SHARE
        ? `${(100 * patch.patchyFace).toFixed(0)} % of a wall face would keep its old paint around the new one (at most ${100 * MAX_UNPAINTED_FACE_SHARE} %)`
        : `the paint's border would be ${patch.raggedness.toFixed(2)} times as long as its smoothed outline's (at most ${MAX_RAGGEDNESS}): a ragged edge through the walls`,
      surface,
    );
  }

  // The last check of a floor: the relaid floor must reach all of the floor the room network sees.
  if (floorNetwork) {
    const seenFloor = floorSeenOf(await floorNetwork(resizeToLongSide(image, Math.max(analysis.working.width, analysis.working.height))));
    timer.lap('floorSeen');
    const [toSeenX, toSeenY] = [seenFloor.width / image.width, seenFloor.height / image.height];
    const keptOut = polygonMask(seenFloor.width, seenFloor.height, analysis.openings.map((o) => o.polygon.map(([x, y]) => [x * toSeenX, y * toSeenY] as [number, number])));
    const seenSide = Math.max(seenFloor.width, seenFloor.height);
    const coverage = floorCoverage(
      seenFloor,
      { width, height, mask: surface.mask },
      keptOut,
      Math.max(1, Math.round(FLOOR_EDGE_TOLERANCE * seenSide)),
      // Past the network's border (its cells) and the relay's own (a photo smaller than the network's grid).
      Math.max(1, Math.round(FLOOR_EDGE_DEPTH * seenSide), Math.ceil((2 * seenSide) / Math.max(width, height))),
    );
    report.floorSeen = {
      share: round(coverage.seenShare),
      leftShare: round(coverage.leftShare),
      largestLeftShare: round(coverage.largestShare),
      relaidOnFloorShare: round(coverage.onFloorShare),
      openEdgeShare: round(coverage.openEdgeShare),
    };
    if (coverage.onFloorShare < MIN_RELAID_ON_FLOOR) {
      return unchanged(
        'floor_not_recognised',
        `the room network sees floor on ${(100 * coverage.onFloorShare).toFixed(0)} % of what would be relaid (at least ${100 * MIN_RELAID_ON_FLOOR} %): the new floor would cover something else`,
        surface,
      );
    }
    if (coverage.leftShare > MAX_FLOOR_LEFT) {
      return unchanged(
        'floor_incomplete',
        `the new floor would stop short of ${(100 * coverage.leftShare).toFixed(0)} % of the floor the room network sees (at most ${100 * MAX_FLOOR_LEFT} %): the old floor would run on beside it`,
        surface,
      );
    }
    if (coverage.openEdgeShare > MAX_OPEN_EDGE) {
      return unchanged(
        'floor_incomplete',
        `along ${(100 * coverage.openEdgeShare).toFixed(0)} % of the new floor's edge the room network sees the floor go on (at most ${100 * MAX_OPEN_EDGE} %): the old floor would show as a strip beside the new one`,
        surface,
      );
    }
  }

  const reference = new Uint8Array(width * height);
  for (let i = 0; i < reference.length; i++) if ((WALL_FACES.includes(labels[i]!) || labels[i] === CEILING) && !forbidden[i]) reference[i] = 1;
  const light = deps.light ?? estimateSceneLight(image, planes, reference);
  const oldAlbedo = albedoOf(medianLuminance(planes, surface.mask), light);
  const matte = surfaceMatte(surface.smoothMask, width, height, FEATHER);
  let output: { image: RawImage; changeMask: Uint8Array; changedPixels: number };
  if (request.transformation === 'walls') {
    const shading = surfaceShading(planes, surface.smoothMask, 4, 0.004);
    const tint = lightTint(planes, surface.smoothMask, Math.max(2, Math.round(0.02 * Math.max(width, height))));
    output = repaintWalls(image, matte, shading, tint, { paint: toTriple(linearOfHex(request.paint)), light, oldAlbedo });
  } else {
    const plane = { normal: analysis.floorPlane.normal, distance: analysis.floorPlane.distance };
    const shading = floorShading(planes, surface.mask, camera, plane, scale);
    const bounds = maskBounds(surface.mask, width, height);
    const region = bounds ? { x0: Math.floor(bounds.x0 * scale), y0: Math.floor(bounds.y0 * scale), x1: Math.ceil((bounds.x1 + 1) * scale), y1: Math.ceil((bounds.y1 + 1) * scale) } : undefined;
    output = relayFloor(image, matte, shading, {
      camera,
      plane,
      sampler: floorSampler(request.material, request.seed),
      light,
      oldAlbedo,
      grain: { sigma: estimateNoiseLevel(image, region), seed: request.seed },
    });
  }
  timer.lap('render');
  progress(1);
  return {
    image: output.image,
    changeMask: output.changeMask,
    light,
    result: {
      refresh: {
        ...report,
        unchanged: false,
        changedPixels: output.changedPixels,
        unchangedShare: round(1 - output.changedPixels / (image.width * image.height)),
        light: { cast: light.cast.map(round), whiteLevel: round(light.whiteLevel), castConfidence: round(light.castConfidence) },
        oldAlbedo: round(oldAlbedo),
        openingsKept: analysis.openings.length,
        milliseconds: timer.report(),
      },
    },
    analysis,
    surface,
    openings,
  };
}

/** What the room network sees as floor, on its own grid. */
function floorSeenOf(seen: RoomSegmentation): GridMask {
  const floor = VISIBLE_CLASSES.indexOf('floor');
  return { width: seen.width, height: seen.height, mask: Uint8Array.from(seen.visible, (v) => (v === floor ? 1 : 0)) };
}

/**
 * Cells never changed: windows and doors with a frame around them (their casing and sill, which the opening's
 * outline leaves out), and the objects the detectors found, a little grown. Returned beside them: the openings only
 * the room network saw (no line frames them) whose outline holds nothing but the wall around it (looksLikeItsWall),
 * each as its cells grown by its frame.
 */
function forbiddenCells(
  analysis: RoomAnalysis,
  planes: ColourPlanes,
  labels: Uint8Array,
  scale: number,
  objects: Uint8Array | undefined,
): { forbidden: Uint8Array; likeWall: Uint8Array[] } {
  const { width, height } = planes;
  const forbidden = new Uint8Array(width * height);
  const likeWall: Uint8Array[] = [];
  const openings = analysis.openings.map((opening) => {
    const polygon = opening.polygon.map(([x, y]) => [x / scale, y / scale] as [number, number]);
    const one = new Uint8Array(width * height);
    fillPolygon(one, width, height, polygon);
    const margin = frameMargin(polygon);
    const grown = dilateRound(one, width, height, margin);
    for (let i = 0; i < forbidden.length; i++) forbidden[i] = forbidden[i]! | grown[i]!;
    const face = FACE_LABELS.indexOf(opening.wall);
    if (opening.frameSupport === 0 && looksLikeItsWall(planes, one, Uint8Array.from(labels, (l) => (l === face ? 1 : 0)))) likeWall.push(grown);
    return { wall: opening.wall, polygon, margin, reach: dilateRound(one, width, height, WINDOW_GROUP_REACH * margin) };
  });
  // Openings on one wall that nearly touch (a mullion or a transom bar apart) are one window: a door with its
  // transom, a pane beside them the analysis missed. Their common rectangle on the wall is kept, panes included.
  const group = openings.map((_, k) => k);
  const root = (k: number): number => (group[k] === k ? k : (group[k] = root(group[k]!)));
  for (let a = 0; a < openings.length; a++) {
    for (let b = a + 1; b < openings.length; b++) {
      if (openings[a]!.wall !== openings[b]!.wall || !openings[a]!.reach.some((v, i) => v && openings[b]!.reach[i])) continue;
      group[root(a)] = root(b);
    }
  }
  const camera = analysisCamera(analysis);
  const box = analysis.layout.box;
  for (let k = 0; k < openings.length; k++) {
    const members = openings.filter((_, m) => root(m) === k);
    if (members.length < 2 || !isWall(members[0]!.wall)) continue;
    // Their common rectangle on the wall, in the wall's own coordinates (along it, height), seen in the photo.
    const wall = members[0]!.wall;
    const corners = members.flatMap((m) => m.polygon.map(([x, y]) => pointOnWall(camera, box, wall, x * scale, y * scale)));
    if (corners.some((c) => c === undefined)) continue;
    const along = corners.map((c) => alongWall(wall, c!));
    const up = corners.map((c) => c![2]);
    const [u0, u1, z0, z1] = [Math.min(...along), Math.max(...along), Math.min(...up), Math.max(...up)];
    const at = (u: number, z: number): [number, number] | undefined => {
      const point: [number, number, number] = wall === 'wall-front' ? [u, box.front, z] : [wall === 'wall-left' ? box.left : box.right, u, z];
      const pixel = projectWorld(camera, point);
      return pixel ? [pixel[0] / scale, pixel[1] / scale] : undefined;
    };
    const outline = [at(u0, z0), at(u1, z0), at(u1, z1), at(u0, z1)];
    if (outline.some((c) => c === undefined)) continue;
    const whole = new Uint8Array(width * height);
    fillPolygon(whole, width, height, outline as [number, number][]);
    const grown = dilateRound(whole, width, height, Math.min(...members.map((m) => m.margin)));
    for (let i = 0; i < forbidden.length; i++) forbidden[i] = forbidden[i]! | grown[i]!;
  }
  if (objects) {
    const cells = gridOf(objects, analysis, width, height);
    const grown = dilateRound(cells, width, height, 2);
    for (let i = 0; i < forbidden.length; i++) forbidden[i] = forbidden[i]! | grown[i]!;
  }
  return { forbidden, likeWall };
}

/**
 * Whether the paint, with a region kept out, would surround it: at least ENCLOSED_BORDER of the cells just outside it
 * painted. Floor there counts as unpainted (an opening standing on the floor is a door); the ceiling and the uncertain
 * band along it (`band` cells, where the paint stops short of a white ceiling), cells kept out for other reasons
 * (another opening, a trim, an object) and cells outside the working copy are not counted.
 *
 * Seen on empty_bedroom_02: room-layout took a glare on the bare left wall for a window, and the repaint left a
 * rectangle of old white in the new paint. Painting such an opening over is no way out: the same photo's white closet
 * doors, whose upper half the network also took for a window, are as plain as the wall inside their panels, and a run
 * that painted plain openings over painted them. So a repaint around one is not done (`walls_patchy`).
 */
function enclosedInPaint(region: Uint8Array, painted: Uint8Array, labels: Uint8Array, forbidden: Uint8Array, width: number, band: number): boolean {
  const height = region.length / width;
  const ring = dilateSquare(region, width, height, 2);
  const nearCeiling = dilateSquare(Uint8Array.from(labels, (l) => (l === CEILING ? 1 : 0)), width, height, band);
  let cells = 0;
  let paint = 0;
  for (let i = 0; i < ring.length; i++) {
    if (!ring[i] || region[i] || nearCeiling[i] || (labels[i] !== FLOOR && forbidden[i])) continue;
    cells++;
    paint += painted[i]!;
  }
  return cells > 0 && paint >= ENCLOSED_BORDER * cells;
}

/**
 * The pixels of what the automatic declutter would remove (services/declutter/remove-automatic.ts findCandidatesIn,
 * at the declutter's own scores): each detection refined to its object, and the floor clutter no detector names but
 * that stands out from the floor's look. A detected object also hides what lies below its top within its box: where
 * the refinement missed a part of it that looks like the wall behind (the beige back of a sofa before a beige wall),
 * that part is still the object's. Photo-sized.
 */
async function objectsMask(image: RawImage, analysis: RoomAnalysis, detectors: ObjectDetectors, signal?: AbortSignal): Promise<Uint8Array> {
  const labels = [...new Set([...REMOVABLE_LABELS, ...KEPT_OBJECTS])];
  const { candidates } = await findCandidatesIn(image, analysis, detectors, { detection: { labels }, ...(signal ? { signal } : {}) });
  const { width, height } = image;
  const mask = new Uint8Array(width * height);
  for (const candidate of candidates) {
    if (candidate.box.width * candidate.box.height > MAX_OBJECT_SHARE * width * height) continue;
    paintRegionMask(mask, width, candidate.mask);
    if (!candidate.detected) continue;
    const region = candidate.mask;
    const bottom = Math.min(height, Math.ceil(candidate.box.y + candidate.box.height), region.y + region.height);
    for (let x = 0; x < region.width; x++) {
      let top = -1;
      for (let y = 0; y < region.height && top < 0; y++) if (region.data[y * region.width + x]) top = y;
      if (top < 0) continue;
      for (let y = region.y + top; y < bottom; y++) mask[y * width + region.x + x] = 1;
    }
  }
  return mask;
}

/** Share of the floor's interior in looks far from its dominant one (see SurfaceMask.looks). */
function foreignLookShare(surface: SurfaceMask): number {
  return surface.looks.filter((l) => l.apart > FOREIGN_LOOK_APART).reduce((sum, l) => sum + l.share, 0);
}

/** A photo-sized mask sampled on the working grid (each cell's centre). */
function gridOf(mask: Uint8Array, analysis: RoomAnalysis, width: number, height: number): Uint8Array {
  const scale = analysis.image.width / width;
  const cells = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = Math.min(analysis.image.height - 1, Math.floor((y + 0.5) * scale)) * analysis.image.width;
    for (let x = 0; x < width; x++) if (mask[row + Math.min(analysis.image.width - 1, Math.floor((x + 0.5) * scale))]) cells[y * width + x] = 1;
  }
  return cells;
}

/**
 * How the surface's cells lie on the layout's faces: the share of the faces' cells the objects cover, the largest
 * connected piece of the surface as a share of the faces' cells, the same per face (the worst face that holds at
 * least 10 % of the faces' cells), and the number of pieces of at least 0.5 % of the faces' cells.
 */
function layoutMeasures(surface: SurfaceMask, labels: Uint8Array, faces: readonly number[], objectCells: Uint8Array) {
  const { width, height, mask } = surface;
  const n = width * height;
  let faceCells = 0;
  let covered = 0;
  const onFaces = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!faces.includes(labels[i]!)) continue;
    faceCells++;
    if (objectCells[i]) covered++;
    if (mask[i]) onFaces[i] = 1;
  }
  const pieces = connectedComponents(onFaces, width, height);
  const largest = pieces.reduce((best, piece) => Math.max(best, piece.pixels.length), 0);
  let worstFaceMain = 1;
  for (const face of faces) {
    const own = new Uint8Array(n);
    let cells = 0;
    for (let i = 0; i < n; i++) {
      if (labels[i] !== face) continue;
      cells++;
      if (mask[i]) own[i] = 1;
    }
    if (cells < 0.1 * faceCells) continue;
    const main = connectedComponents(own, width, height).reduce((best, piece) => Math.max(best, piece.pixels.length), 0);
    worstFaceMain = Math.min(worstFaceMain, main / cells);
  }
  return {
    objectShare: faceCells ? covered / faceCells : 0,
    mainShare: faceCells ? largest / faceCells : 0,
    worstFaceMain,
    pieces: pieces.filter((p) => p.pixels.length >= 0.005 * faceCells).length,
  };
}

function isWall(label: string): label is WallLabel {
  return label === 'wall-left' || label === 'wall-front' || label === 'wall-right';
}

function logLuminance(planes: ColourPlanes): Float32Array {
  const values = new Float32Array(planes.width * planes.height);
  for (let i = 0; i < values.length; i++) {
    values[i] = Math.log(
      LUMINANCE_WEIGHTS[0] * LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]! +
        LUMINANCE_WEIGHTS[1] * LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]! +
        LUMINANCE_WEIGHTS[2] * LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]! +
        1e-3,
    );
  }
  return values;
}

function medianLuminance(planes: ColourPlanes, mask: Uint8Array): number {
  const values: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    values.push(
      LUMINANCE_WEIGHTS[0] * LINEAR_OF_BYTE[Math.round(planes.r[i]! * 255)]! +
        LUMINANCE_WEIGHTS[1] * LINEAR_OF_BYTE[Math.round(planes.g[i]! * 255)]! +
        LUMINANCE_WEIGHTS[2] * LINEAR_OF_BYTE[Math.round(planes.b[i]! * 255)]!,
    );
  }
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function toTriple(values: Float64Array): [number, number, number] {
  return [values[0]!, values[1]!, values[2]!];
}


/**
 * How patchy the walls' paint would be (see MAX_PATCHY_FACE_SHARE and the others): per wall face of the layout, the
 * share of its paintable cells (neither forbidden — openings with their frames, trims, detected objects — nor under an
 * object) the mask paints; the unpainted paintable islands enclosed by paint (at least ENCLOSED_BORDER of their
 * border painted, each at least ISLAND_MIN_SHARE of the paintable cells), as a share of the paintable cells; and the
 * raggedness: the painted mask's border length over that of its smoothed version.
 */
export function wallPatchiness(surface: SurfaceMask, labels: Uint8Array, forbidden: Uint8Array, objectCells: Uint8Array) {
  const { width, height, mask } = surface;
  const n = width * height;
  const paintable = new Uint8Array(n);
  let paintableCells = 0;
  for (let i = 0; i < n; i++) {
    if (WALL_FACES.includes(labels[i]!) && !forbidden[i] && !objectCells[i]) {
      paintable[i] = 1;
      paintableCells++;
    }
  }
  const faces: { face: string; cells: number; painted: number }[] = [];
  for (const face of WALL_FACES) {
    let cells = 0;
    let painted = 0;
    for (let i = 0; i < n; i++) {
      if (labels[i] !== face || !paintable[i]) continue;
      cells++;
      if (mask[i]) painted++;
    }
    if (cells) faces.push({ face: FACE_LABELS[face]!, cells, painted: painted / cells });
  }
  // A partly painted face: among faces holding at least PATCHY_FACE_MIN_SHARE of the paintable cells and painted on
  // more than MIN_PATCHY_FACE_SHARE of them, the largest unpainted share.
  let patchyFace = 0;
  for (const f of faces) {
    if (f.cells < PATCHY_FACE_MIN_SHARE * paintableCells) continue;
    if (f.painted > MIN_PATCHY_FACE_SHARE) patchyFace = Math.max(patchyFace, 1 - f.painted);
  }
  const unpainted = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (paintable[i] && !mask[i]) unpainted[i] = 1;
  let islandCells = 0;
  let islands = 0;
  for (const piece of connectedComponents(unpainted, width, height)) {
    if (piece.pixels.length < ISLAND_MIN_SHARE * paintableCells) continue;
    let border = 0;
    let painted = 0;
    const inside = new Set(piece.pixels);
    for (const i of piece.pixels) {
      const x = i % width;
      const y = (i - x) / width;
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) {
          border++;
          continue;
        }
        const j = ny * width + nx;
        if (inside.has(j)) continue;
        border++;
        if (mask[j]) painted++;
      }
    }
    if (border && painted / border >= ENCLOSED_BORDER) {
      islands++;
      islandCells += piece.pixels.length;
    }
  }
  const source = new Float32Array(n);
  for (let i = 0; i < n; i++) source[i] = mask[i] ? 1 : 0;
  const smooth = boxMean(source, width, height, Math.max(2, Math.round(RAGGED_RADIUS * Math.max(width, height))));
  const perimeter = (inMask: (i: number) => boolean) => {
    let length = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (!inMask(i)) continue;
        if (x + 1 < width && !inMask(i + 1)) length++;
        if (x > 0 && !inMask(i - 1)) length++;
        if (y + 1 < height && !inMask(i + width)) length++;
        if (y > 0 && !inMask(i - width)) length++;
      }
    }
    return length;
  };
  const smoothLength = perimeter((i) => smooth[i]! >= 0.5);
  const raggedness = smoothLength ? perimeter((i) => mask[i] === 1) / smoothLength : 1;
  return { faces, patchyFace, islands, islandShare: paintableCells ? islandCells / paintableCells : 0, raggedness };
}
