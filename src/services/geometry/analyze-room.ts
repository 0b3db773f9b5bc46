import {
  cameraAngles,
  clipLineToImage,
  floorPlane,
  floorToImage,
  horizonLine,
  imageToFloor,
  type PinholeCamera,
} from '../../vision/geometry/camera.js';
import { fitBoxToLayoutMap, layoutMapConfidence, type MapFit } from '../../vision/geometry/fit-box-to-map.js';
import { fitLayout, type LayoutFit, type LayoutOptions } from '../../vision/geometry/layout.js';
import { layoutDisagreement } from '../../vision/geometry/layout-agreement.js';
import { detectOpenings, networkOpenings, type Opening, type OpeningOptions } from '../../vision/geometry/openings.js';
import { orientationMap, type OrientationMapOptions } from '../../vision/geometry/orientation-map.js';
import { orientationFromSegmentation, type RoomSegmentation } from '../../vision/geometry/room-segmentation.js';
import { refineSegments } from '../../vision/geometry/refine-segments.js';
import { standingFurniture } from '../../vision/geometry/standing-furniture.js';
import { fuseCameraHeight } from '../../vision/geometry/metric-scale.js';
import { greyPlane, resizeToLongSide } from '../../vision/geometry/resample.js';
import {
  area,
  boxEdges,
  facePolygons,
  FACE_LABELS,
  FLOOR,
  layoutLabelMap,
  scaleBox,
  type FaceLabel,
  type RoomBox,
} from '../../vision/geometry/room-box.js';
import { mergeCollinear, type LineSegment } from '../../vision/geometry/segments.js';
import { AXIS_NAMES, estimateManhattanFrame, type ManhattanOptions } from '../../vision/geometry/vanishing-points.js';
import type { Mat3, Vec3 } from '../../vision/geometry/vec3.js';
import type { RawImage } from '../../vision/raw-image.js';
import { boxOfPoints, intersectionOverUnion, type Box } from '../../vision/box.js';
import type { LineSource } from './line-sources.js';
import type { SegmentationSource } from './room-network.js';

/** Camera height assumed when nothing in the photo gives the scale: a photographer's tripod or chest height. */
export const DEFAULT_CAMERA_HEIGHT_M = 1.5;
/** A standard interior door leaf's height (2032 mm, 80 in; European leaves are 1981–2040 mm). */
export const DOOR_HEIGHT_M = 2.03;
/** The ceiling refines the scale only when its face covers this share of the image at least (its line is in view). */
const MIN_CEILING_SHARE = 0.02;
/** ... and the layout's confidence is at least this: a wrong ceiling line would mislead the scale. */
const MIN_CEILING_LAYOUT_CONFIDENCE = 0.6;
/** Bounding boxes overlapping at least this much are one opening: the network's is dropped for the framed one. */
const SAME_OPENING_IOU = 0.3;

/** What set the camera height: the prior alone, a door of standard height, or the ceiling's height with the prior. */
export type CameraHeightSource = 'default' | 'door' | 'ceiling';

export interface AnalyzeRoomOptions {
  /** Longer side of the working copy every step runs on. Default 720. */
  workingSize?: number;
  /**
   * Camera height above the floor in metres, when no door gives it; a given height is not refined by the ceiling.
   * Default: 1.5 (DEFAULT_CAMERA_HEIGHT_M), refined by the ceiling where its line is in view.
   */
  cameraHeight?: number;
  /** Let a confidently found door set the camera height (DOOR_HEIGHT_M tall). Default true. */
  scaleFromDoors?: boolean;
  /**
   * Without a door, let a ceiling line in view refine the camera height (fuseCameraHeight: the room-height prior
   * joins the camera-height prior). Default true; ignored when `cameraHeight` is given.
   */
  scaleFromCeiling?: boolean;
  /** Field of view across the longer side assumed when the lines cannot fix the focal length, degrees. Default 65. */
  fovPrior?: number;
  /** A known focal length in photo pixels (e.g. from EXIF): skips the focal search. */
  focal?: number;
  /**
   * A second line source whose segments join the main ones for the vanishing points only (not the layout or the
   * openings): LSD's many precise edges sharpen the focal length where M-LSD's structural lines are few.
   */
  vanishingPointLines?: LineSource;
  /** Snap the segments onto the image's edges first (see refineSegments). Default true. */
  refineLines?: boolean;
  /** Name of the line source, for the report. Default "custom". */
  lineSourceName?: string;
  manhattan?: Omit<ManhattanOptions, 'fovPrior' | 'focal'>;
  orientation?: OrientationMapOptions;
  layout?: LayoutOptions;
  /** The room-understanding network (roomNetworkSource); what its maps serve is `networkUse`. */
  segmentation?: SegmentationSource;
  /**
   * What the network's maps serve when `segmentation` is given: `layout`, the box fitter scores layouts against the
   * network's layout map instead of the orientation map swept from the lines; `openings`, the windows and doors its
   * pixels show (networkOpenings) join those the lines frame, wherever none of those overlaps them; `standing`, what
   * it sees standing on the layout's floor is reported (`standing`). Default: layout.
   */
  networkUse?: readonly NetworkUse[];
  /**
   * With the network's layout: move the fitted box's walls and ceiling onto the network's map where the network is
   * sure of its map and the box strays from it (fitBoxToLayoutMap; MAP_FIT in this file). Default false: the whole-room
   * stagings ask for it, the refresh and the redesign do not (docs/decisions/0026: the moved box places furniture
   * better, but its walls' edges are the map's, coarser than the lines', and paint built on them went through a kitchen).
   */
  fitToMap?: boolean;
  openings?: OpeningOptions;
  /** Checked between steps. */
  signal?: AbortSignal;
}

type Point = [number, number];

/** What the room network's maps may serve in an analysis (AnalyzeRoomOptions.networkUse). */
export type NetworkUse = 'layout' | 'openings' | 'standing';

export interface AnalysedLine {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  score: number;
  /** The vanishing direction the segment converges to, or null. */
  axis: 'x' | 'y' | 'z' | null;
}

export interface RoomAnalysis {
  image: { width: number; height: number };
  working: { width: number; height: number };
  lineSource: string;
  camera: {
    /** Focal length in photo pixels; principal point at the image centre. */
    focal: number;
    cx: number;
    cy: number;
    fovHorizontal: number;
    fovVertical: number;
    /** Degrees; see CameraAngles in vision/geometry/camera.ts for the signs. */
    pitch: number;
    roll: number;
    yaw: number;
    /** World-to-camera rotation, row-major (x_cam = R·x_world; world X right, Y forward, Z up; camera x right, y down, z forward). */
    rotation: number[];
    focalSource: 'vanishing-points' | 'prior' | 'given';
    /** Relative standard deviation of the focal length. */
    focalUncertainty: number;
  };
  /** X (right), Y (forward), Z (up) in that order. */
  vanishingPoints: {
    axis: 'x' | 'y' | 'z';
    /** Unit direction in camera coordinates. */
    direction: Vec3;
    /** Image point in photo pixels; null at infinity. */
    point: Point | null;
    finite: boolean;
    segments: number;
    /** Total length of its segments, photo pixels. */
    support: number;
  }[];
  /** a·x + b·y + c = 0 in photo pixels, and where it crosses the image (null when it does not). */
  horizon: { a: number; b: number; c: number; from: Point | null; to: Point | null };
  lines: AnalysedLine[];
  /** The fit's scores as fitLayout reports them, with faces and box in photo pixels and metres. */
  layout: Omit<LayoutFit, 'box'> & {
    /** What the box was fitted to: the room-understanding network's layout map, or the orientation map of the lines. */
    evidence: 'network' | 'lines';
    /**
     * Where the room network ran: the share of the photo on which the box's faces agree with the network's own layout
     * map (walls matched by overlap; vision/geometry/layout-agreement.ts). A box the lines fitted that the network's map
     * contradicts over much of the photo is wrong far more often than the map (services/geometry/layout-trust.ts).
     */
    networkAgreement?: number;
    /**
     * Present when the box was moved onto the network's layout map after the fit: the share of the map's confident
     * pixels the fitted box disagreed with, and the share the moved box disagrees with. The fit's scores and confidence
     * above are the fitted box's.
     */
    fittedToMap?: { before: number; after: number };
    /** The visible faces; `share` is the face's part of the image, and the shares add up to 1. */
    faces: { label: FaceLabel; polygon: Point[]; share: number }[];
    boundaries: { between: [FaceLabel, FaceLabel]; from: Point; to: Point }[];
    /**
     * The room box in metres, world frame with the camera at the origin (floor at −cameraHeight): left < 0 < right.
     * A side wall with no face in `faces` is out of view, and its position only a placeholder just past the view.
     */
    box: { left: number; right: number; front: number; floor: number; ceiling: number };
  };
  /** Windows and doors on the walls; sizes in metres at the analysis's camera height. */
  openings: {
    kind: Opening['kind'];
    wall: FaceLabel;
    /** Photo pixels: the two bottom corners, then the two top corners (see Opening in vision/geometry/openings.ts). */
    polygon: Point[];
    width: number;
    height: number;
    /** Height of the bottom edge above the floor (0 for doors). */
    sill: number;
    frameSupport: number;
    contrast: number;
    score: number;
  }[];
  /**
   * Furniture and clutter standing on the floor as the room network sees it (standingFurniture), boxes in photo
   * pixels; present only where the analysis was asked for it (networkUse `standing`).
   */
  standing?: Box[];
  /** n·X = d in camera coordinates (metres): n the unit vector pointing down to the floor, d the camera height. */
  floorPlane: { normal: Vec3; distance: number; cameraHeight: number; cameraHeightSource: CameraHeightSource };
  confidence: { vanishingPoints: number; layout: number; overall: number };
  /** Milliseconds per step. */
  timings: Record<string, number>;
}

/**
 * Camera, vanishing points, box layout, openings and floor plane of a room photo. Every step runs on a working copy
 * whose longer side is `workingSize`; results are scaled back to the photo's pixels. No I/O: the line source is
 * passed in (M-LSD through a model session, or the classical detector).
 */
export async function analyzeRoom(image: RawImage, lines: LineSource, options: AnalyzeRoomOptions = {}): Promise<RoomAnalysis> {
  const timings: Record<string, number> = {};
  let clock = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((now - clock) * 10) / 10;
    clock = now;
    options.signal?.throwIfAborted();
  };

  const working = resizeToLongSide(image, options.workingSize ?? 720);
  const sx = image.width / working.width;
  const sy = image.height / working.height;
  lap('resize');

  const raw = await lines(working);
  const snapped = (options.refineLines ?? true) ? refineSegments(greyPlane(working), raw) : raw;
  const segments = mergeCollinear(snapped, { angleDeg: 1.5, distance: 1.5, gap: Math.max(4, 0.01 * Math.max(working.width, working.height)) });
  lap('lines');

  // Extra segments for the vanishing points only (e.g. LSD's precise edges beside M-LSD's structural lines).
  let vpSegments = segments;
  if (options.vanishingPointLines) {
    const extra = await options.vanishingPointLines(working);
    vpSegments = [...segments, ...extra];
    lap('vanishingPointLines');
  }
  const frame = estimateManhattanFrame(vpSegments, working.width, working.height, {
    ...options.manhattan,
    ...(options.fovPrior !== undefined ? { fovPrior: options.fovPrior } : {}),
    ...(options.focal !== undefined ? { focal: options.focal / sx } : {}),
  });
  // The rest of the analysis sees the main segments only, with their assignments.
  const manhattan = { ...frame, assignment: frame.assignment.slice(0, segments.length) };
  const camera = manhattan.camera;
  lap('vanishingPoints');

  let segmentation: RoomSegmentation | undefined;
  if (options.segmentation) {
    segmentation = await options.segmentation(working);
    lap('segmentation');
  }
  const networkUse = options.networkUse ?? ['layout'];
  const orientation = segmentation && networkUse.includes('layout')
    ? orientationFromSegmentation(segmentation, working.width, working.height, options.orientation?.gridSize)
    : orientationMap(segments, manhattan.assignment, camera, options.orientation);
  lap('orientationMap');
  const fitted = fitLayout(camera, segments, manhattan.assignment, orientation, options.layout);
  const mapFit = segmentation && networkUse.includes('layout') && options.fitToMap ? fitToSureMap(camera, fitted.box, segmentation) : undefined;
  const layout = mapFit ? { ...fitted, box: mapFit.box } : fitted;
  lap('layout');

  let cameraHeight = options.cameraHeight ?? DEFAULT_CAMERA_HEIGHT_M;
  let cameraHeightSource: CameraHeightSource = 'default';
  const found = detectOpenings(working, camera, layout.box, segments, manhattan.assignment, options.openings);
  if (segmentation && networkUse.includes('openings')) {
    const framed = found.map((o) => boxOfPoints(o.polygon));
    for (const seen of networkOpenings(camera, layout.box, segmentation)) {
      const bounds = boxOfPoints(seen.polygon);
      if (!framed.some((b) => intersectionOverUnion(b, bounds) >= SAME_OPENING_IOU)) found.push(seen);
    }
  }
  if (options.scaleFromDoors ?? true) {
    const door = found.filter((o) => o.kind === 'door' && o.frameSupport >= 0.8 && Math.abs(o.contrast) >= 0.05).sort((a, b) => b.score - a.score)[0];
    if (door) {
      // The door's height in camera heights fixes the scale.
      const implied = DOOR_HEIGHT_M / door.heightRelative;
      if (implied >= 0.8 && implied <= 2.3) {
        cameraHeight = implied;
        cameraHeightSource = 'door';
      }
    }
  }
  if (cameraHeightSource === 'default' && options.cameraHeight === undefined && (options.scaleFromCeiling ?? true)) {
    // The ceiling line in view (its face at least 2 % of the image) and a layout that holds: the room's height in
    // camera heights joins the camera-height prior.
    const ceiling = facePolygons(camera, layout.box).find((f) => FACE_LABELS[f.face] === 'ceiling');
    const ceilingShare = ceiling ? Math.abs(area(ceiling.polygon)) / (working.width * working.height) : 0;
    if (ceilingShare >= MIN_CEILING_SHARE && layout.confidence * Math.min(1, 0.4 + manhattan.confidence) >= MIN_CEILING_LAYOUT_CONFIDENCE) {
      cameraHeight = fuseCameraHeight(DEFAULT_CAMERA_HEIGHT_M, layout.box.ceiling - layout.box.floor);
      cameraHeightSource = 'ceiling';
    }
  }
  lap('openings');

  // Back to photo pixels.
  const photoCamera: PinholeCamera = { ...camera, width: image.width, height: image.height, focal: camera.focal * sx, cx: image.width / 2, cy: image.height / 2 };
  const angles = cameraAngles(photoCamera);
  const metric = scaleBox(layout.box, cameraHeight);
  const faces = facePolygons(photoCamera, layout.box).map(({ face, polygon }) => ({
    label: FACE_LABELS[face],
    polygon: polygon.map(round2),
    share: Math.abs(area(polygon)) / (image.width * image.height),
  }));
  const boundaries = boxEdges(photoCamera, layout.box).map((e) => ({
    between: [FACE_LABELS[e.faces[0]], FACE_LABELS[e.faces[1]]] as [FaceLabel, FaceLabel],
    from: round2(e.from),
    to: round2(e.to),
  }));
  const horizon = horizonLine(photoCamera);
  const crossing = clipLineToImage(horizon, image.width, image.height);
  const plane = floorPlane(photoCamera, cameraHeight);
  const vpConfidence = manhattan.confidence;
  const layoutConfidence = layout.confidence * Math.min(1, 0.4 + vpConfidence);

  const analysis: RoomAnalysis = {
    image: { width: image.width, height: image.height },
    working: { width: working.width, height: working.height },
    lineSource: options.lineSourceName ?? 'custom',
    camera: {
      focal: photoCamera.focal,
      cx: photoCamera.cx,
      cy: photoCamera.cy,
      fovHorizontal: degrees(2 * Math.atan(image.width / 2 / photoCamera.focal)),
      fovVertical: degrees(2 * Math.atan(image.height / 2 / photoCamera.focal)),
      pitch: angles.pitch,
      roll: angles.roll,
      yaw: angles.yaw,
      rotation: [...photoCamera.rotation],
      focalSource: manhattan.focalSource,
      focalUncertainty: manhattan.focalUncertainty,
    },
    vanishingPoints: manhattan.vanishingPoints.map((vp) => ({
      axis: vp.axis,
      direction: vp.direction,
      point: vp.point ? round2([vp.point[0] * sx, vp.point[1] * sy]) : null,
      finite: vp.finite,
      segments: vp.segments,
      support: Math.round(vp.support * sx),
    })),
    horizon: { ...horizon, from: crossing ? round2(crossing[0]) : null, to: crossing ? round2(crossing[1]) : null },
    lines: segments.map((s, i) => {
      const k = manhattan.assignment[i]!;
      return { ...scaled(s, sx, sy), axis: k >= 0 ? AXIS_NAMES[k]! : null };
    }),
    layout: {
      evidence: segmentation && networkUse.includes('layout') ? 'network' : 'lines',
      ...(mapFit ? { fittedToMap: { before: mapFit.before, after: mapFit.after } } : {}),
      ...(segmentation ? { networkAgreement: 1 - layoutDisagreement(layoutLabelMap(camera, layout.box, segmentation.width, segmentation.height), segmentation.layout) } : {}),
      faces,
      boundaries,
      box: { left: metric.left, right: metric.right, front: metric.front, floor: metric.floor, ceiling: metric.ceiling },
      score: layout.score,
      orientationAgreement: layout.orientationAgreement,
      orientedShare: layout.orientedShare,
      lineSupport: layout.lineSupport,
      margin: layout.margin,
      confidence: layoutConfidence,
    },
    openings: found.map((o) => ({
      kind: o.kind,
      wall: o.wall,
      polygon: o.polygon.map((p) => round2([p[0] * sx, p[1] * sy])),
      width: r2(o.widthRelative * cameraHeight),
      height: r2(o.heightRelative * cameraHeight),
      sill: r2(o.sillRelative * cameraHeight),
      frameSupport: r2(o.frameSupport),
      contrast: r2(o.contrast),
      score: r2(o.score),
    })),
    ...(segmentation && networkUse.includes('standing') ? { standing: standingBoxes(camera, layout.box, segmentation, image) } : {}),
    floorPlane: { normal: plane.normal, distance: plane.distance, cameraHeight, cameraHeightSource },
    confidence: { vanishingPoints: vpConfidence, layout: layoutConfidence, overall: Math.sqrt(vpConfidence * layoutConfidence) },
    timings,
  };
  lap('report');
  return analysis;
}

/**
 * When the fitted box is moved onto the network's layout map: the network's mean probability of its winning layout
 * class at least `minMapConfidence`, and the box disagreeing with at least `minDisagreement` of the map's confident
 * pixels. An unsure map is wrong more often than the lines (a living room's sofas, a passage the map merges into a
 * wall: empty_living_02's map is 31 % wrong, its fitted box 2 %); a box that already follows the map is left on the
 * lines' exact edges, sharper than the map's. Both bars were set on the 25 photos with a drawn layout (bench:room-
 * understanding), which were also the ones they were measured on.
 */
const MAP_FIT = { minMapConfidence: 0.9, minDisagreement: 0.05 };

/** The fitted box moved onto a sure map it strays from (MAP_FIT); undefined where it stays as fitted. */
function fitToSureMap(camera: PinholeCamera, box: RoomBox, segmentation: RoomSegmentation): MapFit | undefined {
  if (layoutMapConfidence(segmentation) < MAP_FIT.minMapConfidence) return undefined;
  const fit = fitBoxToLayoutMap(camera, box, segmentation, { minDisagreement: MAP_FIT.minDisagreement });
  return fit.after < fit.before ? fit : undefined;
}

/** The analysis's camera as a PinholeCamera in photo pixels. */
export function analysisCamera(analysis: RoomAnalysis): PinholeCamera {
  const { focal, cx, cy, rotation } = analysis.camera;
  return { width: analysis.image.width, height: analysis.image.height, focal, cx, cy, rotation: rotation as Mat3 };
}

/** The room box in metres (world frame, camera at the origin). */
export function analysisBox(analysis: RoomAnalysis): RoomBox {
  return { ...analysis.layout.box, back: -Infinity };
}

/** The floor point (camera coordinates, metres) seen at photo pixel (x, y); undefined at or above the horizon. */
export function imageToFloorPoint(analysis: RoomAnalysis, x: number, y: number): Vec3 | undefined {
  return imageToFloor(analysisCamera(analysis), analysis.floorPlane, x, y);
}

/** The photo pixel of a point given in camera coordinates (metres); undefined behind the camera. */
export function floorPointToImage(analysis: RoomAnalysis, point: Readonly<Vec3>): Point | undefined {
  return floorToImage(analysisCamera(analysis), point);
}

/** Per-pixel face indices (FACE_LABELS order) of the layout, at any size (e.g. a benchmark's label image). */
export function layoutLabels(analysis: RoomAnalysis, width = analysis.image.width, height = analysis.image.height): Uint8Array {
  return layoutLabelMap(analysisCamera(analysis), analysisBox(analysis), width, height);
}

/** standingFurniture on the layout's floor, its boxes in the photo's pixels. */
function standingBoxes(camera: PinholeCamera, box: RoomBox, segmentation: RoomSegmentation, image: RawImage): NonNullable<RoomAnalysis['standing']> {
  const floor = layoutLabelMap(camera, box, segmentation.width, segmentation.height).map((face) => (face === FLOOR ? 1 : 0));
  const sx = image.width / segmentation.width;
  const sy = image.height / segmentation.height;
  return standingFurniture(segmentation, floor).map((b) => {
    // The photo pixels the box's segmentation pixels cover, whole.
    const [x0, y0] = [Math.floor(b.x * sx), Math.floor(b.y * sy)];
    const [x1, y1] = [Math.ceil((b.x + b.width) * sx), Math.ceil((b.y + b.height) * sy)];
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  });
}

function scaled(s: LineSegment, sx: number, sy: number): Omit<AnalysedLine, 'axis'> {
  return { x0: r2(s.x0 * sx), y0: r2(s.y0 * sy), x1: r2(s.x1 * sx), y1: r2(s.y1 * sy), score: r2(s.score) };
}

function round2(p: readonly [number, number]): Point {
  return [r2(p[0]), r2(p[1])];
}

function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

function degrees(radians: number): number {
  return (radians * 180) / Math.PI;
}
