import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { MLSD_MODEL } from '../src/services/geometry/line-sources.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import {
  analysisCamera,
  analyzeRoom,
  floorPointToImage,
  imageToFloorPoint,
  layoutLabels,
  type RoomAnalysis,
} from '../src/services/geometry/analyze-room.js';
import { boxOfPoints, intersectionOverUnion, type Box } from '../src/vision/box.js';
import { networkOpenings } from '../src/vision/geometry/openings.js';
import { layoutDisagreement } from '../src/vision/geometry/layout-agreement.js';
import { LAYOUT_CLASSES, networkSize, VISIBLE_CLASSES, type RoomSegmentation, type VisibleClass } from '../src/vision/geometry/room-segmentation.js';
import { ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL, ROOM_NETWORK_SIZE } from '../src/services/geometry/room-network.js';
import { analyzeWithLines, analyzeWithSecondOpinion, chooseLineSources } from '../src/services/operations/line-source-choice.js';
import { MAX_NETWORK_DISAGREEMENT, MIN_TRUSTED_LAYOUT_CONFIDENCE, networkContradicts } from '../src/services/geometry/layout-trust.js';
import { roomLayoutDoubt } from '../src/services/staging/stage-room.js';
import { detectSegmentsMlsd, lsdLineSource, mlsdInput, mlsdLineSource, type TensorModel } from '../src/services/geometry/line-sources.js';
import { overlaySvg } from '../src/services/geometry/overlay-svg.js';
import { cameraAngles, floorPlane, imageToFloor, projectPoint, type PinholeCamera } from '../src/vision/geometry/camera.js';
import { detectSegmentsLsd } from '../src/vision/geometry/lsd.js';
import { decodeMlsd } from '../src/vision/geometry/mlsd-decoder.js';
import { refineSegments } from '../src/vision/geometry/refine-segments.js';
import { greyPlane } from '../src/vision/geometry/resample.js';
import { FACE_LABELS, facePolygons, layoutLabelMap } from '../src/vision/geometry/room-box.js';
import { mergeCollinear, segmentLength, type LineSegment } from '../src/vision/geometry/segments.js';
import { estimateManhattanFrame } from '../src/vision/geometry/vanishing-points.js';
import { column, type Mat3, type Vec3 } from '../src/vision/geometry/vec3.js';
import type { RawImage } from '../src/vision/raw-image.js';

// ---------------------------------------------------------------------------------------------------------------
// A tiny renderer of box rooms: a pinhole camera inside an axis-aligned box (world X right, Y forward, Z up, camera
// at the origin), flat-coloured faces, floor boards, rectangles on the walls and furniture boxes, 2 × 2 supersampled.

interface Room {
  left: number;
  right: number;
  back: number;
  front: number;
  floor: number;
  ceiling: number;
}

type Colour = [number, number, number];
/** A rectangle on a wall (3 left, 4 front, 5 right in the scene's face numbering below), in wall coordinates. */
interface WallRect {
  face: 2 | 3 | 4;
  u0: number;
  u1: number;
  z0: number;
  z1: number;
  colour: Colour;
}
interface Furniture {
  min: Vec3;
  max: Vec3;
  colour: Colour;
}

/** Scene faces use FACE_LABELS numbering: 0 floor, 1 ceiling, 2 left, 3 front, 4 right, 5 back; 6 furniture. */
const COLOURS: Colour[] = [[150, 108, 78], [236, 236, 232], [200, 188, 168], [222, 210, 186], [176, 196, 186], [180, 180, 200], [90, 70, 110]];

/** The renderer's camera convention: forward (sin yaw cos pitch, cos yaw cos pitch, sin pitch), roll raises the right side. */
function makeCamera(width: number, height: number, hfovDeg: number, yawDeg: number, pitchDeg: number, rollDeg: number): PinholeCamera {
  const d = Math.PI / 180;
  const [yaw, pitch, roll] = [yawDeg * d, pitchDeg * d, rollDeg * d];
  const f: Vec3 = [Math.sin(yaw) * Math.cos(pitch), Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch)];
  const r0: Vec3 = [Math.cos(yaw), -Math.sin(yaw), 0];
  const up0: Vec3 = [r0[1] * f[2] - r0[2] * f[1], r0[2] * f[0] - r0[0] * f[2], r0[0] * f[1] - r0[1] * f[0]];
  const [c, s] = [Math.cos(roll), Math.sin(roll)];
  const r: Vec3 = [c * r0[0] + s * up0[0], c * r0[1] + s * up0[1], c * r0[2] + s * up0[2]];
  const up: Vec3 = [-s * r0[0] + c * up0[0], -s * r0[1] + c * up0[1], -s * r0[2] + c * up0[2]];
  const rotation: Mat3 = [r[0], r[1], r[2], -up[0], -up[1], -up[2], f[0], f[1], f[2]];
  return { width, height, focal: width / 2 / Math.tan((hfovDeg * d) / 2), cx: width / 2, cy: height / 2, rotation };
}

function worldRay(camera: PinholeCamera, x: number, y: number): Vec3 {
  const R = camera.rotation;
  const dc: Vec3 = [(x - camera.cx) / camera.focal, (y - camera.cy) / camera.focal, 1];
  return [R[0] * dc[0] + R[3] * dc[1] + R[6] * dc[2], R[1] * dc[0] + R[4] * dc[1] + R[7] * dc[2], R[2] * dc[0] + R[5] * dc[1] + R[8] * dc[2]];
}

function castRoom(room: Room, d: Vec3): { face: number; point: Vec3; t: number } {
  let t = Infinity;
  let face = 5;
  const test = (value: number, f: number) => {
    if (value > 0 && value < t) {
      t = value;
      face = f;
    }
  };
  if (d[2] < 0) test(room.floor / d[2], 0);
  if (d[2] > 0) test(room.ceiling / d[2], 1);
  if (d[0] < 0) test(room.left / d[0], 2);
  if (d[0] > 0) test(room.right / d[0], 4);
  if (d[1] > 0) test(room.front / d[1], 3);
  if (d[1] < 0) test(room.back / d[1], 5);
  return { face, point: [d[0] * t, d[1] * t, d[2] * t], t };
}

function castBox(box: Furniture, d: Vec3): number {
  let near = 0;
  let far = Infinity;
  for (let k = 0; k < 3; k++) {
    if (Math.abs(d[k]!) < 1e-12) {
      if (box.min[k]! > 0 || box.max[k]! < 0) return Infinity;
      continue;
    }
    const a = box.min[k]! / d[k]!;
    const b = box.max[k]! / d[k]!;
    near = Math.max(near, Math.min(a, b));
    far = Math.min(far, Math.max(a, b));
  }
  return near <= far && near > 0 ? near : Infinity;
}

interface Scene {
  camera: PinholeCamera;
  room: Room;
  rects?: WallRect[];
  furniture?: Furniture[];
  /** Board width on the floor (lines along Y), metres; 0 for none. */
  boards?: number;
}

function render(scene: Scene): { image: RawImage; labels: Uint8Array } {
  const { camera, room } = scene;
  const { width, height } = camera;
  const data = new Uint8Array(width * height * 3);
  const labels = new Uint8Array(width * height);
  const boards = scene.boards ?? 0.3;
  let noise = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      for (let s = 0; s < 4; s++) {
        const d = worldRay(camera, x + 0.25 + 0.5 * (s % 2), y + 0.25 + 0.5 * (s >> 1));
        const hit = castRoom(room, d);
        let colour = COLOURS[hit.face]!;
        if (hit.face === 0 && boards > 0) {
          const u = hit.point[0] / boards;
          if (u - Math.floor(u) < 0.05) colour = [112, 80, 58];
        }
        for (const r of scene.rects ?? []) {
          if (r.face !== hit.face) continue;
          const u = hit.face === 3 ? hit.point[0] : hit.point[1];
          if (u >= r.u0 && u <= r.u1 && hit.point[2] >= r.z0 && hit.point[2] <= r.z1) colour = r.colour;
        }
        for (const f of scene.furniture ?? []) if (castBox(f, d) < hit.t) colour = f.colour;
        for (let c = 0; c < 3; c++) sum[c]! += colour[c]!;
        if (s === 0) labels[y * width + x] = hit.face;
      }
      for (let c = 0; c < 3; c++) {
        noise = (noise * 1103515245 + 12345) & 0x7fffffff;
        data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(sum[c]! / 4 + ((noise % 5) - 2))));
      }
    }
  }
  return { image: { data, width, height, channels: 3 }, labels };
}

function angleBetweenAxes(a: Vec3, b: Vec3): number {
  const cos = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b));
  return (Math.acos(Math.min(1, cos)) * 180) / Math.PI;
}

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

/** Per-face intersection over union between two label maps (faces present in the truth with at least minShare). */
function faceIoU(truth: Uint8Array, predicted: Uint8Array, minShare = 0.03): Map<string, number> {
  const result = new Map<string, number>();
  for (let face = 0; face < 6; face++) {
    let inter = 0;
    let union = 0;
    let present = 0;
    for (let i = 0; i < truth.length; i++) {
      const a = truth[i] === face;
      const b = predicted[i] === face;
      if (a) present++;
      if (a && b) inter++;
      if (a || b) union++;
    }
    if (present >= minShare * truth.length) result.set(FACE_LABELS[face]!, inter / union);
  }
  return result;
}

const ROOM: Room = { left: -2.6, right: 2.9, back: -2, front: 4.2, floor: -1.45, ceiling: 1.15 };
const WINDOW: WallRect = { face: 3, u0: 0.1, u1: 1.5, z0: -0.55, z1: 0.75, colour: [250, 250, 255] };
const DOOR: WallRect = { face: 4, u0: 2.2, u1: 3.1, z0: -1.45, z1: 0.58, colour: [120, 86, 60] };

function lsdSegments(image: RawImage): LineSegment[] {
  return detectSegmentsLsd(greyPlane(image));
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * What a perfect room network would see of a room: floor, ceiling and wall, with the given rectangles on the walls
 * labelled as `kind` (any wall face they name), and the room's faces behind them, sure of each, at w × h over the
 * camera's view.
 */
function networkView(camera: PinholeCamera, room: Room, w: number, h: number, marks: { rect: WallRect; kind: VisibleClass }[], extra?: (face: number, point: Vec3) => VisibleClass | undefined): RoomSegmentation {
  const visible = new Uint8Array(w * h);
  const layout = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const { face, point } = castRoom(room, worldRay(camera, ((x + 0.5) * camera.width) / w, ((y + 0.5) * camera.height) / h));
      // The faces in view (floor, ceiling, left, front and right wall) are the layout classes, in the same order.
      layout[y * w + x] = face;
      const u = face === 3 ? point[0] : point[1];
      const mark = marks.find(({ rect }) => rect.face === face && u >= rect.u0 && u <= rect.u1 && point[2] >= rect.z0 && point[2] <= rect.z1);
      const kind = mark?.kind ?? extra?.(face, point) ?? (face === 0 ? 'floor' : face === 1 ? 'ceiling' : 'wall');
      visible[y * w + x] = VISIBLE_CLASSES.indexOf(kind);
    }
  }
  return { width: w, height: h, visible, layout, layoutConfidence: new Float32Array(w * h).fill(1), edges: new Float32Array(w * h) };
}

/** The image box of a wall rectangle. */
function rectBox(camera: PinholeCamera, room: Room, rect: WallRect): Box {
  const corner = (u: number, z: number): Vec3 => (rect.face === 3 ? [u, room.front, z] : rect.face === 4 ? [room.right, u, z] : [room.left, u, z]);
  const corners = [corner(rect.u0, rect.z0), corner(rect.u1, rect.z0), corner(rect.u1, rect.z1), corner(rect.u0, rect.z1)];
  return boxOfPoints(corners.map((p) => projectPoint(camera, worldToCameraPoint(camera, p))!));
}

describe('openings seen by the room network', () => {
  const camera = makeCamera(480, 360, 75, 25, -3, 0);
  // A second window on the front wall, right of the first, that only the network's map shows.
  const SECOND: WallRect = { face: 3, u0: 1.9, u1: 2.6, z0: -0.3, z1: 0.6, colour: [250, 250, 255] };

  it('makes each rectangle of window or door pixels on a wall an opening, a door where it reaches the floor, and leaves a ragged glare out', () => {
    // A diagonal band of "window" on the right wall, as a glare or a reflection looks: it fills little of its rectangle.
    const glare = (face: number, p: Vec3): VisibleClass | undefined => (face === 4 && Math.abs(p[1] - 0.5 - (p[2] + 1) * 0.8) < 0.12 ? 'window' : undefined);
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }, { rect: DOOR, kind: 'door' }], glare);
    const found = networkOpenings(camera, ROOM, seen);
    assert.deepEqual(found.map((o) => [o.kind, o.wall]).sort(), [['door', 'wall-right'], ['window', 'wall-front']], JSON.stringify(found.map((o) => [o.kind, o.wall, o.score])));
    for (const [opening, rect] of [[found.find((o) => o.kind === 'window')!, WINDOW], [found.find((o) => o.kind === 'door')!, DOOR]] as const) {
      const iou = intersectionOverUnion(boxOfPoints(opening.polygon), rectBox(camera, ROOM, rect));
      assert.ok(iou > 0.85, `${opening.kind}: IoU ${iou.toFixed(2)} with the true rectangle`);
      assert.equal(opening.frameSupport, 0);
    }
    assert.equal(found.find((o) => o.kind === 'door')!.sillRelative, 0);
  });

  it('adds to the analysis the openings its lines miss, once each', async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }, { rect: DOOR, kind: 'door' }, { rect: SECOND, kind: 'window' }]);
    const lines = await analyzeRoom(image, lsdLineSource(), { lineSourceName: 'lsd' });
    const both = await analyzeRoom(image, lsdLineSource(), { lineSourceName: 'lsd', segmentation: async () => seen, networkUse: ['openings'] });
    const on = (analysis: RoomAnalysis, rect: WallRect) => analysis.openings.filter((o) => intersectionOverUnion(boxOfPoints(o.polygon), rectBox(camera, ROOM, rect)) >= 0.3);
    assert.equal(on(lines, WINDOW).length, 1, 'the lines frame the window');
    assert.equal(on(lines, SECOND).length, 0, 'the lines cannot see the second window: it is not in the photo');
    assert.deepEqual(on(both, WINDOW), on(lines, WINDOW), 'the framed window is kept as the lines found it, not doubled');
    assert.equal(on(both, SECOND).length, 1, JSON.stringify(both.openings.map((o) => [o.kind, o.wall, o.polygon.map((q) => q.map(Math.round))])));
    assert.equal(on(both, SECOND)[0]!.kind, 'window');
    // The layout is still the lines': only the openings changed, and the network's map agrees with it.
    const { networkAgreement, ...layout } = both.layout;
    assert.deepEqual(layout, lines.layout);
    assert.ok(networkAgreement! > 0.95, `agreement ${networkAgreement}`);
  });

  it("moves the fitted box onto the network's layout map where the network is sure of it, and only there", async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    // The map puts the front wall 0.7 m nearer than the photo's lines do: where the map is sure, the box follows it.
    const nearer = networkView(camera, { ...ROOM, front: 3.5 }, 240, 180, []);
    const offMap = (analysis: RoomAnalysis) => layoutDisagreement(layoutLabels(analysis, 240, 180), nearer.layout);
    const analyse = (seen: RoomSegmentation, fitToMap: boolean) => analyzeRoom(image, lsdLineSource(), { lineSourceName: 'lsd', segmentation: async () => seen, fitToMap });
    const fitted = await analyse(nearer, false);
    const moved = await analyse(nearer, true);
    assert.deepEqual((await analyzeRoom(image, lsdLineSource(), { lineSourceName: 'lsd', segmentation: async () => nearer })).layout.box, fitted.layout.box, 'not asked: the box as fitted');
    assert.ok(offMap(fitted) >= 0.05, `the fit strays from the map on ${offMap(fitted)}`);
    assert.ok(offMap(moved) < 0.02, `the moved box still strays on ${offMap(moved)}`);
    assert.ok(moved.layout.fittedToMap && Math.abs(moved.layout.fittedToMap.before - offMap(fitted)) < 0.02, JSON.stringify(moved.layout.fittedToMap));
    assert.equal(moved.layout.confidence, fitted.layout.confidence, "the fit's scores are reported as they were");
    assert.equal(fitted.layout.fittedToMap, undefined);
    // The same map, less sure of itself (0.85 on every pixel): the box stays as fitted.
    const unsure = { ...nearer, layoutConfidence: new Float32Array(nearer.layoutConfidence.length).fill(0.85) };
    const kept = await analyse(unsure, true);
    assert.equal(kept.layout.fittedToMap, undefined);
    assert.deepEqual(kept.layout.box, (await analyse(unsure, false)).layout.box);
  });

  it('moves the box for the operations that ask (the whole-room stagings), not for the others (the paint)', async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const nearer = networkView(camera, { ...ROOM, front: 3.5 }, 240, 180, []);
    const lines = { layout: lsdLineSource(), roomNetwork: async () => nearer };
    const staged = await analyzeWithSecondOpinion(image, lines, () => undefined, undefined, { fitToMap: true });
    const painted = await analyzeWithSecondOpinion(image, lines, () => undefined);
    assert.equal(staged.analysis.layout.evidence, 'network');
    assert.equal(painted.analysis.layout.evidence, 'network');
    assert.ok(staged.analysis.layout.fittedToMap, 'the stagings build on the moved box');
    assert.equal(painted.analysis.layout.fittedToMap, undefined);
    assert.notDeepEqual(staged.analysis.layout.box, painted.analysis.layout.box);
  });

  it('reaches the operations through the line choice, only where they ask for it', async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const { width, height } = networkSize(image.width, image.height, ROOM_NETWORK_SIZE);
    const seen = networkView(camera, ROOM, width, height, [{ rect: WINDOW, kind: 'window' }, { rect: SECOND, kind: 'window' }]);
    // The network as the worker runtime serves it: logits per class plane, the seen class far ahead.
    const network: TensorModel = {
      async run(_input, dims) {
        assert.deepEqual(dims, [1, 3, height, width]);
        const visible = new Float32Array(VISIBLE_CLASSES.length * width * height);
        seen.visible.forEach((c, i) => (visible[c * width * height + i] = 10));
        const plane = (n: number) => ({ data: new Float32Array(n * width * height), dims: [1, n, height, width] });
        return { visible: { data: visible, dims: [1, VISIBLE_CLASSES.length, height, width] }, layout: plane(5), edges: plane(1) };
      },
    };
    // The layout network answers with the same maps: what is seen comes from the first only.
    const networks = new Set([ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL]);
    const models = (installed: boolean) => ({
      isInstalled: async (name: string) => installed && networks.has(name),
      detectorSession: async (name: string) => (networks.has(name) ? network : assert.fail(`${name} opened`)),
    });
    const second = async (options: Parameters<typeof chooseLineSources>[1], installed = true) => {
      const analysis = await analyzeWithLines(image, await chooseLineSources(models(installed), options));
      return analysis.openings.filter((o) => intersectionOverUnion(boxOfPoints(o.polygon), rectBox(camera, ROOM, SECOND)) >= 0.3).length;
    };
    assert.equal(await second({}), 0, 'not asked: the lines alone');
    assert.equal(await second({ roomNetwork: true }), 1, 'asked: the window only the network sees');
    assert.equal(await second({ roomNetwork: true }, false), 0, 'asked, but the network is not there: the lines alone');
  });

  it("takes the network's layout unless the operation doubts it, and the lines' then", async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }]);
    const lines = { layout: lsdLineSource(), roomNetwork: async () => seen };
    const doubtOf = (doubted: 'lines' | 'network' | 'both' | 'none') => (analysis: RoomAnalysis) =>
      doubted === 'both' || doubted === analysis.layout.evidence ? `the ${analysis.layout.evidence} layout is doubted` : undefined;
    const lineFit = await analyzeWithLines(image, lines);
    assert.equal(lineFit.layout.evidence, 'lines');
    // What the network sees standing is reported where the network was chosen: nothing stands in this room.
    assert.deepEqual(lineFit.standing, []);
    assert.equal((await analyzeWithLines(image, { layout: lines.layout })).standing, undefined);

    for (const doubted of ['none', 'lines'] as const) {
      const taken = await analyzeWithSecondOpinion(image, lines, doubtOf(doubted));
      assert.equal(taken.analysis.layout.evidence, 'network', doubted);
      assert.equal(taken.networkDoubt, undefined, doubted);
    }
    for (const doubted of ['network', 'both'] as const) {
      // The lines' analysis, for the operation to refuse where it doubts that one too.
      const setAside = await analyzeWithSecondOpinion(image, lines, doubtOf(doubted));
      assert.equal(setAside.networkDoubt, 'the network layout is doubted', doubted);
      assert.deepEqual(setAside.analysis.layout, lineFit.layout, doubted);
    }
    const alone = await analyzeWithSecondOpinion(image, { layout: lines.layout }, doubtOf('lines'));
    assert.equal(alone.networkDoubt, undefined);
    const { networkAgreement, ...lineLayout } = lineFit.layout;
    assert.ok(networkAgreement! > 0.99, `the network's map is the room's own: agreement ${networkAgreement}`);
    assert.deepEqual(alone.analysis.layout, lineLayout, "no network: the lines' layout, judged by nothing");
  });

  it('runs the lines and the network once for both opinions', async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }]);
    const calls = { lines: 0, network: 0 };
    const lsd = lsdLineSource();
    const lines = {
      layout: async (working: RawImage) => (calls.lines++, lsd(working)),
      roomNetwork: async () => (calls.network++, seen),
    };
    const opinion = await analyzeWithSecondOpinion(image, lines, (a) => (a.layout.evidence === 'network' ? 'the network is doubted' : undefined));
    assert.equal(opinion.analysis.layout.evidence, 'lines');
    assert.deepEqual(calls, { lines: 1, network: 1 });
    // Another photo is another answer.
    await analyzeWithSecondOpinion(render({ camera, room: ROOM, rects: [WINDOW] }).image, lines, () => undefined);
    assert.deepEqual(calls, { lines: 2, network: 2 });
  });

  it('takes its layout only where it is as sure as one the refresh trusts', async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }]);
    const lines = { layout: lsdLineSource(), roomNetwork: async () => seen };
    const sure = await analyzeWithSecondOpinion(image, lines, () => undefined);
    assert.equal(sure.analysis.layout.evidence, 'network');
    assert.ok(sure.analysis.confidence.layout >= MIN_TRUSTED_LAYOUT_CONFIDENCE, `${sure.analysis.confidence.layout}`);
    // The same map, but the network unsure of every face: below the 0.6 from which its map counts at all, so the box
    // fitted to it stands on the lines alone; and the operation's own doubt (which accepts any box here) is not enough
    // to take it.
    seen.layoutConfidence.fill(0.5);
    // Sure enough for the stagings' own checks (0.3), not for the bar the network's box must clear.
    const guessed = await analyzeRoom(image, lines.layout, { segmentation: lines.roomNetwork, networkUse: ['layout'] });
    assert.ok(guessed.confidence.layout >= 0.3 && guessed.confidence.layout < MIN_TRUSTED_LAYOUT_CONFIDENCE, `${guessed.confidence.layout}`);
    const unsure = await analyzeWithSecondOpinion(image, lines, () => undefined);
    assert.equal(unsure.analysis.layout.evidence, 'lines');
    assert.match(unsure.networkDoubt ?? '', /confidence .* below 0\.6/);
  });

  it("measures how far the lines' box agrees with its layout map, and names a lines' layout it contradicts", async () => {
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const seen = networkView(camera, ROOM, 240, 180, [{ rect: WINDOW, kind: 'window' }]);
    const lines = { layout: lsdLineSource(), roomNetwork: async () => seen };
    const agreed = await analyzeWithLines(image, lines);
    assert.equal(agreed.layout.evidence, 'lines');
    assert.ok(agreed.layout.networkAgreement! > 0.95, `agreement ${agreed.layout.networkAgreement}`);
    assert.equal(networkContradicts(agreed), undefined);
    assert.equal(roomLayoutDoubt(agreed), undefined);
    // A map that puts the floor over the photo's lower half and one wall over the rest: the room's left wall,
    // ceiling and right wall it shows nowhere.
    for (let i = 0; i < seen.layout.length; i++) seen.layout[i] = Math.floor(i / 240) >= 90 ? LAYOUT_CLASSES.indexOf('floor') : LAYOUT_CLASSES.indexOf('wall-front');
    const contradicted = await analyzeWithLines(image, lines);
    assert.deepEqual(contradicted.layout.box, agreed.layout.box, 'the box is still the lines\'');
    assert.ok(contradicted.layout.networkAgreement! < 1 - MAX_NETWORK_DISAGREEMENT, `agreement ${contradicted.layout.networkAgreement}`);
    assert.match(networkContradicts(contradicted)!, /^the room network's layout map contradicts the lines' layout on \d+ % of the photo \(at most 20 %\)$/);
    assert.equal(roomLayoutDoubt(contradicted), networkContradicts(contradicted));
    // A box fitted to the map itself is not judged against it, and without the network there is nothing to judge by.
    assert.equal(networkContradicts({ layout: { ...contradicted.layout, evidence: 'network' } }), undefined);
    const alone = await analyzeWithLines(image, { layout: lsdLineSource() });
    assert.equal(alone.layout.networkAgreement, undefined);
    assert.equal(networkContradicts(alone), undefined);
  });

  it('reports what the network sees standing on the floor, in photo pixels', async () => {
    const { image } = render({ camera, room: ROOM, rects: [] });
    const seen = networkView(camera, ROOM, 240, 180, []);
    const lines = { layout: lsdLineSource(), roomNetwork: async () => seen };
    // Where the lines' box puts the floor's far edge in the middle column, a cabinet 24 network pixels wide rising
    // 20 rows above it and standing 10 below it; the network's layout map has wall above that edge.
    const floorFace = layoutLabels(await analyzeWithLines(image, lines), 240, 180);
    const edge = Array.from({ length: 180 }, (_, y) => y).find((y) => floorFace[y * 240 + 120] === 0)!;
    assert.ok(edge > 40 && edge < 160, `the floor's edge at row ${edge}`);
    for (let y = 0; y < 180; y++) {
      for (let x = 0; x < 240; x++) {
        const i = y * 240 + x;
        seen.layout[i] = y >= edge ? LAYOUT_CLASSES.indexOf('floor') : LAYOUT_CLASSES.indexOf('wall-front');
        if (x >= 108 && x < 132 && y >= edge - 20 && y < edge + 10) seen.visible[i] = VISIBLE_CLASSES.indexOf('furniture');
      }
    }
    // The photo is twice the network's size: the box doubles.
    assert.equal(image.width, 480);
    assert.deepEqual((await analyzeWithLines(image, lines)).standing, [{ x: 216, y: 2 * (edge - 20), width: 48, height: 60 }]);
  });
});

describe('M-LSD decoding', () => {
  it('keeps local maxima above the threshold, longest enough, best first, endpoints ×2 in input pixels', () => {
    const width = 8;
    const height = 8;
    const scores = new Float32Array(width * height);
    const offsets = new Float32Array(width * height * 4);
    const set = (x: number, y: number, score: number, o: [number, number, number, number]) => {
      scores[y * width + x] = score;
      offsets.set(o, (y * width + x) * 4);
    };
    set(3, 4, 0.9, [-2, -1, 3, 1]);
    set(4, 4, 0.5, [-3, -1, 2, 1]); // beside a stronger centre: suppressed
    set(6, 1, 0.3, [-1, 0, 1, 0.5]);
    set(1, 6, 0.05, [-1, 0, 4, 0]); // under the threshold
    set(6, 6, 0.6, [0, 0, 0.5, 0]); // too short
    const segments = decodeMlsd({ scores, offsets, width, height }, { minLength: 1 });
    assert.equal(segments.length, 2);
    assert.deepEqual(segments[0], { x0: 2, y0: 6, x1: 12, y1: 10, score: scores[4 * width + 3] });
    assert.deepEqual(
      segments.map((s) => [s.x0, s.y0, s.x1, s.y1]),
      [
        [2, 6, 12, 10],
        [10, 2, 14, 3],
      ],
    );
    assert.equal(decodeMlsd({ scores, offsets, width, height }, { minLength: 1, topK: 1 }).length, 1);
    // The reference's own defaults: 20 map cells at least; neither of these is that long.
    assert.equal(decodeMlsd({ scores, offsets, width, height }).length, 0);
  });

  it('applies the sigmoid to logits', () => {
    const scores = Float32Array.of(-5, 2, -5, -5);
    const offsets = new Float32Array(16);
    offsets.set([-3, 0, 3, 0], 4);
    const [segment] = decodeMlsd({ scores, offsets, width: 2, height: 2 }, { logits: true, minLength: 1 });
    near(segment!.score, 1 / (1 + Math.exp(-2)), 1e-6, 'score');
  });

  it('feeds the model NHWC RGBA 0–255 with alpha 1 and maps its segments back to the image', async () => {
    const image: RawImage = { data: new Uint8Array(64 * 32 * 3).fill(200), width: 64, height: 32, channels: 3 };
    const input = mlsdInput(image, 16);
    assert.equal(input.length, 16 * 16 * 4);
    assert.deepEqual([...input.slice(0, 8)], [200, 200, 200, 1, 200, 200, 200, 1]);
    let seenDims: readonly number[] = [];
    const model: TensorModel = {
      async run(_input, dims) {
        seenDims = dims;
        const scores = new Float32Array(8 * 8);
        const offsets = new Float32Array(8 * 8 * 4);
        scores[2 * 8 + 4] = 0.8;
        offsets.set([-4, 0, 3, 0], (2 * 8 + 4) * 4);
        return { scores: { data: scores, dims: [1, 8, 8, 1] }, offsets: { data: offsets, dims: [1, 8, 8, 4] } };
      },
    };
    const segments = await detectSegmentsMlsd(model, image, { inputSize: 16, minLength: 1 });
    assert.deepEqual(seenDims, [1, 16, 16, 4]);
    assert.equal(segments.length, 1);
    // Map cell (4, 2) → input (0…14, 4) → image ×4 horizontally, ×2 vertically.
    assert.deepEqual(segments.map((s) => [s.x0, s.y0, s.x1, s.y1]), [[0, 8, 56, 8]]);
  });
});

describe('classical line segments (LSD)', () => {
  it('finds the edges of a drawn rectangle with their endpoints', () => {
    const width = 200;
    const height = 120;
    const data = new Uint8Array(width * height * 3).fill(60);
    for (let y = 30; y < 90; y++) for (let x = 40; x < 170; x++) data.fill(210, (y * width + x) * 3, (y * width + x) * 3 + 3);
    const segments = detectSegmentsLsd(greyPlane({ data, width, height, channels: 3 }));
    const expect = (x0: number, y0: number, x1: number, y1: number) => {
      const found = segments.find((s) => {
        const forward = Math.hypot(s.x0 - x0, s.y0 - y0) + Math.hypot(s.x1 - x1, s.y1 - y1);
        const backward = Math.hypot(s.x0 - x1, s.y0 - y1) + Math.hypot(s.x1 - x0, s.y1 - y0);
        return Math.min(forward, backward) < 4;
      });
      assert.ok(found, `no segment from (${x0}, ${y0}) to (${x1}, ${y1}) among ${JSON.stringify(segments.map((s) => [s.x0, s.y0, s.x1, s.y1].map(Math.round)))}`);
    };
    expect(40, 30, 170, 30);
    expect(40, 90, 170, 90);
    expect(40, 30, 40, 90);
    expect(170, 30, 170, 90);
  });

  it('snaps a segment that is off by a pixel onto its edge, and merges collinear pieces', () => {
    const width = 120;
    const height = 80;
    const data = new Uint8Array(width * height).fill(40);
    for (let y = 0; y < height; y++) for (let x = 60; x < width; x++) data[y * width + x] = 220;
    const [snapped] = refineSegments(greyPlane({ data, width, height, channels: 1 }), [{ x0: 61.2, y0: 10, x1: 59.4, y1: 70, score: 1 }]);
    near(snapped!.x0, 60, 0.3, 'x0');
    near(snapped!.x1, 60, 0.3, 'x1');
    const merged = mergeCollinear([
      { x0: 0, y0: 10, x1: 40, y1: 10, score: 1 },
      { x0: 44, y0: 10.5, x1: 90, y1: 10.5, score: 1 },
      { x0: 0, y0: 30, x1: 40, y1: 30, score: 1 },
    ]);
    assert.equal(merged.length, 2);
    near(segmentLength(merged[0]!), 90, 0.6, 'merged length');
  });
});

describe('Manhattan vanishing points', () => {
  const cases = [
    { name: 'two-point, level', hfov: 70, yaw: 30, pitch: 0, roll: 0 },
    { name: 'three-point, looking down, rolled', hfov: 62, yaw: 20, pitch: -10, roll: 2 },
    { name: 'wide, looking up, rolled the other way', hfov: 85, yaw: -35, pitch: 5, roll: -3 },
  ];
  for (const c of cases) {
    it(`recovers directions, focal, pitch and roll: ${c.name}`, () => {
      const camera = makeCamera(480, 360, c.hfov, c.yaw, c.pitch, c.roll);
      const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
      const estimate = estimateManhattanFrame(lsdSegments(image), image.width, image.height);
      for (const k of [0, 1, 2] as const) {
        const error = angleBetweenAxes(column(estimate.camera.rotation, k), column(camera.rotation, k));
        assert.ok(error < 1, `axis ${k}: ${error.toFixed(3)}° off`);
      }
      assert.equal(estimate.focalSource, 'vanishing-points');
      near(estimate.camera.focal / camera.focal, 1, 0.05, 'focal ratio');
      const angles = cameraAngles(estimate.camera);
      near(angles.pitch, c.pitch, 0.5, 'pitch');
      near(angles.roll, c.roll, 0.5, 'roll');
      near(angles.yaw, c.yaw, 1, 'yaw');
      assert.ok(estimate.confidence > 0.5, `confidence ${estimate.confidence}`);
    });
  }

  it('falls back to the focal prior in one-point perspective, directions still right', () => {
    const camera = makeCamera(480, 360, 70, 0, 0, 0);
    const { image } = render({ camera, room: ROOM, rects: [WINDOW] });
    const estimate = estimateManhattanFrame(lsdSegments(image), image.width, image.height);
    assert.equal(estimate.focalSource, 'prior');
    near((2 * Math.atan(240 / estimate.camera.focal) * 180) / Math.PI, 65, 1, 'field of view (the prior)');
    for (const k of [0, 1, 2] as const) assert.ok(angleBetweenAxes(column(estimate.camera.rotation, k), column(camera.rotation, k)) < 1);
    assert.equal(estimate.vanishingPoints[0].finite, false);
    assert.equal(estimate.vanishingPoints[1].finite, true);
    near(estimate.vanishingPoints[1].point![0], 240, 2, 'central vanishing point x');
  });
});

describe('room analysis', () => {
  const analyse = async (scene: Scene): Promise<{ analysis: RoomAnalysis; labels: Uint8Array }> => {
    const { image, labels } = render(scene);
    return { analysis: await analyzeRoom(image, lsdLineSource(), { lineSourceName: 'lsd' }), labels };
  };

  it('labels floor, ceiling and walls of an empty room (IoU > 0.9 per face)', async () => {
    const camera = makeCamera(480, 360, 70, 25, -4, 0);
    const { analysis, labels } = await analyse({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const ious = faceIoU(labels, layoutLabels(analysis));
    assert.ok(ious.size >= 4, `faces ${[...ious.keys()]}`);
    for (const [face, iou] of ious) assert.ok(iou > 0.9, `${face}: IoU ${iou.toFixed(3)}`);
    assert.ok(analysis.confidence.layout > 0.5);
  });

  it('keeps the layout when furniture stands in front of the walls', async () => {
    const camera = makeCamera(480, 360, 75, -20, -6, 0);
    const furniture: Furniture[] = [
      { min: [-1.8, 3.2, -1.45], max: [0.4, 4.2, -0.6], colour: [90, 70, 110] },
      { min: [1.9, 1.2, -1.45], max: [2.9, 2.6, -0.9], colour: [60, 90, 70] },
    ];
    const { analysis, labels } = await analyse({ camera, room: ROOM, rects: [WINDOW], furniture });
    const predicted = layoutLabels(analysis);
    let wrong = 0;
    for (let i = 0; i < labels.length; i++) if (labels[i] !== predicted[i]) wrong++;
    // The label truth is the room's box: furniture pixels count with the wall or floor behind them.
    assert.ok(wrong / labels.length < 0.08, `pixel error ${((100 * wrong) / labels.length).toFixed(1)} %`);
  });

  it('keeps each side wall on its own side when the view is turned wholly to one side', async () => {
    // Turned 38° with a 50° field of view, the view ends 13° short of the forward axis: the other side's wall is out
    // of view, and must stay out of it (not be put between the camera and the room, over the whole image).
    for (const yaw of [-38, 38]) {
      const camera = makeCamera(480, 360, 50, yaw, -3, 0);
      const { analysis, labels } = await analyse({ camera, room: ROOM, rects: [WINDOW, DOOR] });
      const { box, faces } = analysis.layout;
      const total = faces.reduce((sum, f) => sum + f.share, 0);
      assert.ok(total <= 1.001, `yaw ${yaw}: the faces' shares add up to ${(100 * total).toFixed(1)} %`);
      near(total, 1, 0.01, `yaw ${yaw}: faces cover the image`);
      assert.ok(box.left < 0 && box.right > 0, `yaw ${yaw}: walls at ${box.left.toFixed(2)} / ${box.right.toFixed(2)} m`);
      const [seen, unseen] = yaw < 0 ? (['wall-left', 'wall-right'] as const) : (['wall-right', 'wall-left'] as const);
      assert.deepEqual(faces.map((f) => f.label).sort(), ['ceiling', 'floor', seen, 'wall-front'].sort(), `yaw ${yaw}: no ${unseen}`);
      // Where each wall's pixels are: the left wall left of the front wall and of the image's middle, the right wall right.
      const predicted = layoutLabels(analysis);
      const meanX = (label: string) => {
        const face = FACE_LABELS.indexOf(label as (typeof FACE_LABELS)[number]);
        let sum = 0;
        let count = 0;
        for (let i = 0; i < predicted.length; i++) {
          if (predicted[i] !== face) continue;
          sum += i % camera.width;
          count++;
        }
        return sum / count;
      };
      if (seen === 'wall-left') assert.ok(meanX(seen) < Math.min(meanX('wall-front'), camera.width / 2), 'the left wall is on the left');
      else assert.ok(meanX(seen) > Math.max(meanX('wall-front'), camera.width / 2), 'the right wall is on the right');
      for (const [face, iou] of faceIoU(labels, predicted)) assert.ok(iou > 0.9, `yaw ${yaw}, ${face}: IoU ${iou.toFixed(3)}`);
    }
  });

  it('finds the window on the front wall and the door on the right wall', async () => {
    const camera = makeCamera(480, 360, 75, 25, -3, 0);
    const { analysis } = await analyse({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const window = analysis.openings.find((o) => o.kind === 'window' && o.wall === 'wall-front');
    assert.ok(window, `openings: ${JSON.stringify(analysis.openings.map((o) => [o.kind, o.wall]))}`);
    const scale = analysis.floorPlane.cameraHeight / 1.45;
    near(window.width, 1.4 * scale, 0.12, 'window width');
    near(window.height, 1.3 * scale, 0.12, 'window height');
    near(window.sill, 0.9 * scale, 0.12, 'window sill');
    const door = analysis.openings.find((o) => o.kind === 'door' && o.wall === 'wall-right');
    assert.ok(door, `openings: ${JSON.stringify(analysis.openings.map((o) => [o.kind, o.wall]))}`);
    // The door's height (2.03 m here) sets the camera height.
    assert.equal(analysis.floorPlane.cameraHeightSource, 'door');
    near(analysis.floorPlane.cameraHeight, 1.45, 0.08, 'camera height from the door');
    // Project the true window corners and compare.
    const corner = projectPoint(camera, worldToCameraPoint(camera, [WINDOW.u0, ROOM.front, WINDOW.z0]))!;
    near(window.polygon[0]![0], corner[0], 4, 'window corner x');
    near(window.polygon[0]![1], corner[1], 4, 'window corner y');
  });

  it('refines the camera height by the ceiling in view when no door gives it', async () => {
    // The camera 1.2 m above the floor of a 2.7 m room (a typical ceiling): the 1.5 m prior alone is 25 % off.
    const low: Room = { ...ROOM, floor: -1.2, ceiling: 1.5 };
    const camera = makeCamera(480, 360, 75, 25, 2, 0);
    const { analysis } = await analyse({ camera, room: low, rects: [WINDOW] });
    assert.equal(analysis.floorPlane.cameraHeightSource, 'ceiling');
    const height = analysis.floorPlane.cameraHeight;
    assert.ok(height > 1.15 && height < 1.38, `camera height ${height.toFixed(2)} m: between the truth and the prior, nearer the truth`);
    // The room's measured height follows: the box's ceiling over the floor, in metres.
    near(analysis.layout.box.ceiling - analysis.layout.box.floor, (height * 2.7) / 1.2, 0.1, 'room height at that scale');
    // A given camera height is taken as it is.
    const given = await analyzeRoom(render({ camera, room: low, rects: [WINDOW] }).image, lsdLineSource(), { cameraHeight: 1.5 });
    assert.equal(given.floorPlane.cameraHeightSource, 'default');
    assert.equal(given.floorPlane.cameraHeight, 1.5);
  });

  it('maps floor pixels to 3D points and back, at the given camera height', async () => {
    const camera = makeCamera(480, 360, 65, 15, -8, 0);
    const { image } = render({ camera, room: ROOM, rects: [WINDOW] });
    const analysis = await analyzeRoom(image, lsdLineSource(), { cameraHeight: 1.45, scaleFromDoors: false });
    assert.equal(analysis.floorPlane.cameraHeightSource, 'default');
    for (const [x, y] of [
      [240, 330],
      [60, 300],
      [420, 350],
    ] as const) {
      const p = imageToFloorPoint(analysis, x, y);
      assert.ok(p, `(${x}, ${y}) is on the floor`);
      const back = floorPointToImage(analysis, p);
      near(back![0], x, 1e-6, 'x round trip');
      near(back![1], y, 1e-6, 'y round trip');
      // Against the truth: the same pixel on the true floor.
      const truth = imageToFloor(camera, floorPlane(camera, 1.45), x, y)!;
      const distance = Math.hypot(...truth);
      const error = Math.hypot(p[0] - truth[0], p[1] - truth[1], p[2] - truth[2]);
      assert.ok(error / distance < 0.03, `(${x}, ${y}): ${error.toFixed(3)} m off at ${distance.toFixed(2)} m`);
    }
    assert.equal(imageToFloorPoint(analysis, 240, 10), undefined, 'above the horizon');
  });

  it('reports in photo pixels when working at a reduced size, and draws an overlay', async () => {
    const camera = makeCamera(960, 720, 70, 25, -4, 0);
    const { image } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const analysis = await analyzeRoom(image, lsdLineSource(), { workingSize: 480 });
    assert.deepEqual(analysis.working, { width: 480, height: 360 });
    assert.deepEqual(analysis.image, { width: 960, height: 720 });
    near(analysis.camera.focal / camera.focal, 1, 0.05, 'focal ratio in photo pixels');
    assert.ok(analysis.lines.some((l) => Math.max(l.x0, l.x1) > 600), 'lines are in photo pixels');
    const estimated = analysisCamera(analysis);
    const truth = layoutLabelMap(camera, { ...ROOM, back: -Infinity }, 240, 180);
    const predicted = layoutLabelMap(estimated, { ...analysis.layout.box, back: -Infinity }, 240, 180);
    let wrong = 0;
    for (let i = 0; i < truth.length; i++) if (truth[i] !== predicted[i]) wrong++;
    assert.ok(wrong / truth.length < 0.05, `pixel error ${((100 * wrong) / truth.length).toFixed(1)} %`);
    const faces = facePolygons(estimated, { ...analysis.layout.box, back: -Infinity });
    assert.deepEqual(faces.map((f) => FACE_LABELS[f.face]), analysis.layout.faces.map((f) => f.label));
    const total = analysis.layout.faces.reduce((sum, f) => sum + f.share, 0);
    near(total, 1, 0.01, 'faces cover the image');
    const json = JSON.parse(JSON.stringify(analysis)) as RoomAnalysis;
    assert.equal(json.vanishingPoints.length, 3);
    const svg = overlaySvg(analysis);
    assert.match(svg, /^<svg [^>]*width="960" height="720"/);
    assert.match(svg, /<polygon /);
  });
});

const registry = ModelRegistry.load();
const runtime = new ModelRuntime(new ModelStore(path.resolve(import.meta.dirname, '../data/models'), registry), registry);
const mlsdInstalled = await runtime.isInstalled(MLSD_MODEL);
after(() => runtime.close());

describe('the M-LSD model', { skip: mlsdInstalled ? false : `${MLSD_MODEL} is not installed: run \`roomcraft models install\`` }, () => {
  it('finds the room edges of a render, and the analysis with it gets the camera right', async () => {
    const camera = makeCamera(640, 480, 68, 28, -5, 0);
    const { image, labels } = render({ camera, room: ROOM, rects: [WINDOW, DOOR] });
    const model = await runtime.detectorSession(MLSD_MODEL);
    const segments = await detectSegmentsMlsd(model, image);
    assert.ok(segments.length >= 8, `${segments.length} segments`);
    // The corner between the front and the right wall, a vertical line.
    const corner = [[ROOM.right, ROOM.front, ROOM.floor], [ROOM.right, ROOM.front, ROOM.ceiling]].map((p) => projectPoint(camera, worldToCameraPoint(camera, p as Vec3))!);
    const found = segments.some((s) => {
      const distance = (x: number, y: number) => {
        const [[ax, ay], [bx, by]] = corner as [[number, number], [number, number]];
        return Math.abs((bx - ax) * (ay - y) - (ax - x) * (by - ay)) / Math.hypot(bx - ax, by - ay);
      };
      return segmentLength(s) > 60 && distance(s.x0, s.y0) < 3 && distance(s.x1, s.y1) < 3;
    });
    assert.ok(found, 'the wall corner is among the segments');
    const analysis = await analyzeRoom(image, mlsdLineSource(model), { lineSourceName: MLSD_MODEL });
    for (const k of [0, 1, 2] as const) {
      const error = angleBetweenAxes(column(analysisCamera(analysis).rotation, k), column(camera.rotation, k));
      assert.ok(error < 1, `axis ${k}: ${error.toFixed(3)}° off`);
    }
    near(analysis.camera.focal / camera.focal, 1, 0.05, 'focal ratio');
    const ious = faceIoU(labels, layoutLabels(analysis));
    for (const [face, iou] of ious) assert.ok(iou > 0.85, `${face}: IoU ${iou.toFixed(3)}`);
  });
});

function worldToCameraPoint(camera: PinholeCamera, p: Vec3): Vec3 {
  const r = camera.rotation;
  return [r[0] * p[0] + r[1] * p[1] + r[2] * p[2], r[3] * p[0] + r[4] * p[1] + r[5] * p[2], r[6] * p[0] + r[7] * p[1] + r[8] * p[2]];
}
