import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { lsdLineSource } from '../src/services/geometry/line-sources.js';
import { analyzeWithLines, chooseLineSources, type ChosenLines } from '../src/services/operations/line-source-choice.js';
import { checkRefreshValue, PAINT_COLOURS } from '../src/services/operations/refresh.js';
import { refreshPhoto } from '../src/services/refresh/refresh-photo.js';
import { LUMINANCE_WEIGHTS } from '../src/vision/colour.js';
import { downsampleToPlanes } from '../src/vision/colour-planes.js';
import { dilateRound } from '../src/vision/declutter/mask-shapes.js';
import { floorPlane, projectPoint, worldToCamera } from '../src/vision/geometry/camera.js';
import { floorSampler } from '../src/vision/restyle/floor-materials.js';
import { FLOOR_MATERIAL_IDS, floorMaterial } from '../src/catalog/floor-materials.js';
import { linearOfHex } from '../src/vision/restyle/hex-colour.js';
import { floorMapping, floorShading, relayFloor } from '../src/vision/restyle/relay-floor.js';
import { lightTint, repaintWalls } from '../src/vision/restyle/repaint-walls.js';
import type { SceneLight } from '../src/vision/restyle/scene-light.js';
import { VISIBLE_CLASSES, type RoomSegmentation } from '../src/vision/geometry/room-segmentation.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { surfaceMask } from '../src/vision/restyle/surface-mask.js';
import { looksLikeItsWall } from '../src/vision/restyle/plain-openings.js';
import { surfaceMatte, surfaceShading } from '../src/vision/restyle/surface-matte.js';
import { dataUrl } from './helpers/fixtures.js';
import { linear, paintedRoom, type PaintedRoom } from './helpers/painted-room.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Only a hang reaches this: the analysis, the detectors and the repaint take seconds on a loaded machine. */
const TIMEOUT_MS = 10 * 60_000;
/** The light the pure tests hand the modules: neutral, so that the expected colour is the paint's own. */
const NEUTRAL: SceneLight = { cast: [1, 1, 1], whiteLevel: 0.5, castConfidence: 1 };

function luminanceAt(data: Uint8Array, p: number): number {
  return LUMINANCE_WEIGHTS[0] * linear(data[p * 3]!) + LUMINANCE_WEIGHTS[1] * linear(data[p * 3 + 1]!) + LUMINANCE_WEIGHTS[2] * linear(data[p * 3 + 2]!);
}

/** Pixels of `mask` at least `margin` pixels from any pixel outside it. */
function inner(mask: Uint8Array, width: number, height: number, margin: number): Uint8Array {
  const outside = Uint8Array.from(mask, (v) => (v ? 0 : 1));
  const near = dilateRound(outside, width, height, margin);
  return Uint8Array.from(mask, (v, i) => (v && !near[i] ? 1 : 0));
}

function sameBytes(a: Uint8Array, b: Uint8Array, p: number): boolean {
  return a[p * 3] === b[p * 3] && a[p * 3 + 1] === b[p * 3 + 1] && a[p * 3 + 2] === b[p * 3 + 2];
}

describe('repainting the walls of a drawn room', () => {
  const room = paintedRoom();
  const { width, height } = room.image;
  const planes = downsampleToPlanes(room.image, 1024);
  const forbidden = dilateRound(room.window, width, height, 2);
  const surface = surfaceMask(
    { planes, labels: room.labels, faces: [2, 3, 4], forbidden },
    { band: 6, localLook: true, clusters: 1, threshold: 4, minPieceShare: 0.004, maxSpread: [0.4, 0.12, 0.03, 0.6], rivals: [0], edgeStep: 0.06, smoothIsSurface: true },
  );
  const paint = Array.from(linearOfHex(PAINT_COLOURS['deep blue'])) as [number, number, number];
  const oldAlbedo = LUMINANCE_WEIGHTS[0] * room.paint[0] + LUMINANCE_WEIGHTS[1] * room.paint[1] + LUMINANCE_WEIGHTS[2] * room.paint[2];
  const result = repaintWalls(
    room.image,
    surfaceMatte(surface.mask, width, height, 1.5),
    surfaceShading(planes, surface.mask, 4, 0.004),
    lightTint(planes, surface.mask, 8),
    { paint, light: NEUTRAL, oldAlbedo },
  );
  const out = result.image.data;
  const core = inner(room.wall, width, height, 4);

  it('finds the walls: nearly all of the painted wall, none of the window, ceiling or floor', () => {
    let coreCells = 0;
    let found = 0;
    for (let p = 0; p < core.length; p++) {
      if (!core[p]) continue;
      coreCells++;
      if (surface.mask[p]) found++;
    }
    assert.ok(found / coreCells > 0.97, `walls found: ${((100 * found) / coreCells).toFixed(1)} %`);
    for (let p = 0; p < core.length; p++) {
      if (surface.mask[p]) assert.ok(!room.window[p] && (room.labels[p]! >= 2 || !room.pure[p]), `pixel ${p % width},${Math.floor(p / width)} is no wall`);
    }
  });

  it('leaves the window, its frame, the ceiling and the floor bit-identical, and every change inside the change mask', () => {
    let changed = 0;
    for (let p = 0; p < width * height; p++) {
      const same = sameBytes(out, room.image.data, p);
      // A pixel the wall's edge crosses is partly wall: it may take the new paint.
      if (room.window[p] || (room.labels[p]! < 2 && room.pure[p])) assert.ok(same, `pixel ${p % width},${Math.floor(p / width)} (${room.window[p] ? 'window' : room.labels[p] ? 'ceiling' : 'floor'}) changed`);
      if (!same) {
        changed++;
        assert.equal(result.changeMask[p], 255, `pixel ${p % width},${Math.floor(p / width)} changed outside the change mask`);
      }
    }
    assert.ok(changed > 0.4 * width * height, `${changed} pixels repainted`);
  });

  it('gives the walls the new colour under the photo’s shading: chromaticity of the paint, luminance ratio constant', () => {
    const ratios: number[] = [];
    let worst = 0;
    for (let p = 0; p < core.length; p++) {
      if (!core[p]) continue;
      const r = linear(out[p * 3]!);
      const g = linear(out[p * 3 + 1]!);
      const b = linear(out[p * 3 + 2]!);
      // Within 6 % per channel ratio (8-bit rounding of a dark blue is a few per cent on its own).
      worst = Math.max(worst, Math.abs(Math.log(r / g / (paint[0] / paint[1]))), Math.abs(Math.log(b / g / (paint[2] / paint[1]))));
      ratios.push(luminanceAt(out, p) / luminanceAt(room.image.data, p));
    }
    assert.ok(worst < 0.06, `largest chromaticity error ${worst.toFixed(3)} (log)`);
    const mean = ratios.reduce((s, v) => s + v, 0) / ratios.length;
    const spread = Math.sqrt(ratios.reduce((s, v) => s + (v - mean) ** 2, 0) / ratios.length) / mean;
    const paintLuminance = LUMINANCE_WEIGHTS[0] * paint[0] + LUMINANCE_WEIGHTS[1] * paint[1] + LUMINANCE_WEIGHTS[2] * paint[2];
    assert.ok(spread < 0.03, `output/input luminance varies by ${(100 * spread).toFixed(1)} % over the walls`);
    assert.ok(Math.abs(mean / (paintLuminance / oldAlbedo) - 1) < 0.05, `ratio ${mean.toFixed(3)} against ${(paintLuminance / oldAlbedo).toFixed(3)}`);
  });
});

describe('relaying the floor of a drawn room', () => {
  const room: PaintedRoom = paintedRoom();
  const { width, height } = room.image;
  const planes = downsampleToPlanes(room.image, 1024);
  const surface = surfaceMask(
    { planes, labels: room.labels, faces: [0], forbidden: new Uint8Array(width * height) },
    { band: 6, localLook: false, clusters: 4, threshold: 4.5, minPieceShare: 0.01, rivals: [2, 3, 4], edgeStep: 0.06 },
  );
  const plane = floorPlane(room.camera, -room.box.floor);
  const material = floorMaterial('tile')!;
  const result = relayFloor(room.image, surfaceMatte(surface.mask, width, height, 1.5), floorShading(planes, surface.mask, room.camera, plane, 1), {
    camera: room.camera,
    plane,
    sampler: floorSampler(material, 7),
    light: NEUTRAL,
    oldAlbedo: 0.15,
    grain: { sigma: 0, seed: 7 },
  });
  const out = result.image.data;

  it('changes the floor and nothing else', () => {
    const floor = inner(Uint8Array.from(room.labels, (l) => (l === 0 ? 1 : 0)), width, height, 3);
    let floorCells = 0;
    let relaid = 0;
    for (let p = 0; p < width * height; p++) {
      const same = sameBytes(out, room.image.data, p);
      if (room.labels[p] !== 0 && room.pure[p]) assert.ok(same, `pixel ${p % width},${Math.floor(p / width)} off the floor changed`);
      if (!same) assert.equal(result.changeMask[p], 255);
      if (floor[p]) {
        floorCells++;
        if (!same) relaid++;
      }
    }
    assert.ok(relaid / floorCells > 0.97, `floor relaid: ${((100 * relaid) / floorCells).toFixed(1)} %`);
  });

  it('maps pixels to the floor point they see, and lays 60 cm tiles at 60 cm on it', () => {
    const map = floorMapping(room.camera, plane);
    const seen = new Float64Array(2);
    const lines: number[] = [];
    const centres: number[] = [];
    for (const y of [2.2, 2.8, 3.4]) {
      for (let k = -2; k <= 2; k++) {
        for (const [u, list] of [[0.6 * k, lines], [0.6 * k + 0.3, centres]] as const) {
          const pixel = projectPoint(room.camera, worldToCamera(room.camera, [u, y + 0.3, room.box.floor]));
          if (!pixel || pixel[0] < 0 || pixel[0] >= width || pixel[1] < 0 || pixel[1] >= height) continue;
          assert.ok(map(pixel[0], pixel[1], seen));
          assert.ok(Math.hypot(seen[0]! - u, seen[1]! - (y + 0.3)) < 1e-6, `pixel ${pixel} maps back to the floor point`);
          // Grout runs along y = 0.6 m steps too: sample between them, on a line of x alone.
          const p = Math.floor(pixel[1]) * width + Math.floor(pixel[0]);
          if (room.labels[p] === 0) list.push(luminanceAt(out, p));
        }
      }
    }
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    assert.ok(lines.length >= 6 && centres.length >= 6, `${lines.length} grout and ${centres.length} tile samples`);
    assert.ok(mean(lines) < 0.92 * mean(centres), `grout ${mean(lines).toFixed(4)} against tile ${mean(centres).toFixed(4)}`);
  });

  it('generates every material with boards or tiles at their size, and the catalog names the twin’s materials', () => {
    for (const id of ['parquet', 'tile', 'marble', 'carpet', 'concrete', 'hardwood']) assert.ok(FLOOR_MATERIAL_IDS.includes(id), id);
    const sample = new Float64Array(3);
    const at = (id: string, u: number, v: number) => {
      floorSampler(floorMaterial(id)!, 3)(u, v, 0.001, sample);
      return sample[1]!;
    };
    // Hardwood: a seam every 18 cm across the boards, none between.
    for (const u of [0.18, 0.36, 0.54]) assert.ok(at('hardwood', u, 0.4) < 0.6 * at('hardwood', u + 0.09, 0.4), `seam at ${u} m`);
    for (const id of FLOOR_MATERIAL_IDS) {
      const sampler = floorSampler(floorMaterial(id)!, 3);
      for (const footprint of [0.001, 0.05, 5]) {
        sampler(1.234, 2.345, footprint, sample);
        assert.ok(sample.every((c) => Number.isFinite(c) && c >= 0 && c <= 1), `${id} at footprint ${footprint}: ${[...sample]}`);
      }
    }
  });
});

describe('the refresh value', () => {
  it('takes a paint colour for walls and a catalog material for floors, and names the known ones otherwise', () => {
    assert.deepEqual(checkRefreshValue('walls', '#a1b2c3'), []);
    assert.deepEqual(checkRefreshValue('walls', 'egg shell'), []);
    assert.deepEqual(checkRefreshValue('floor', 'marble'), []);
    const [wrong] = checkRefreshValue('floor', 'oak_herringbone-2');
    assert.equal(wrong!.field, '/value');
    for (const id of FLOOR_MATERIAL_IDS) assert.match(wrong!.message, new RegExp(`"${id}"`));
    assert.equal(checkRefreshValue('walls', 'parquet').length, 1);
  });
});

describe('a refresh handed the room an earlier step analysed', { timeout: TIMEOUT_MS }, () => {
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(path.resolve(import.meta.dirname, '../data/models'), registry), registry);
  after(() => runtime.close());

  it('paints the walls as it does when it analyses the photo itself, and finds no lines of its own', async () => {
    const room = paintedRoom(320, 240);
    // The service's lines: M-LSD with LSD where installed (the test app's choice), LSD alone otherwise.
    const lines = await chooseLineSources(runtime);
    const request = { transformation: 'walls' as const, value: 'terracotta', paint: PAINT_COLOURS.terracotta };
    const own = await refreshPhoto(room.image, request, { lines });
    assert.ok(own.changeMask, JSON.stringify(own.result.refresh));
    let searches = 0;
    const counted: ChosenLines = { ...lines, layout: (image) => (searches++, lines.layout(image)) };
    const analysis = await analyzeWithLines(room.image, counted);
    assert.equal(searches, 1);
    const handed = await refreshPhoto(room.image, request, { lines: counted, analysis });
    assert.equal(searches, 1, 'the refresh looked for lines again');
    assert.deepEqual(handed.changeMask, own.changeMask);
    assert.deepEqual(handed.image.data, own.image.data);
  });
});

describe('the room network in a refresh', { timeout: TIMEOUT_MS }, () => {
  it("paints on the network's box where it is sure of it, and on the lines' where it is not, saying which and why", async () => {
    const room = paintedRoom();
    const { width, height } = room.image;
    // A network that sees the drawn room's faces exactly, at the given confidence.
    const network = (confidence: number) => async (_working: RawImage): Promise<RoomSegmentation> => ({
      width,
      height,
      visible: Uint8Array.from(room.labels, (face, p) => VISIBLE_CLASSES.indexOf(room.window[p] ? 'window' : face === 0 ? 'floor' : face === 1 ? 'ceiling' : 'wall')),
      layout: room.labels.slice(),
      layoutConfidence: new Float32Array(width * height).fill(confidence),
      edges: new Float32Array(width * height),
    });
    const lines = { layout: lsdLineSource(), name: 'lsd', mlsd: false };
    const request = { transformation: 'walls' as const, value: 'terracotta', paint: PAINT_COLOURS.terracotta };
    const sure = (await refreshPhoto(room.image, request, { lines: { ...lines, roomNetwork: network(1) } })).result.refresh;
    assert.deepEqual(sure.layout, { evidence: 'network' }, JSON.stringify(sure));
    assert.equal(sure.unchanged, false, JSON.stringify(sure));
    const unsure = (await refreshPhoto(room.image, request, { lines: { ...lines, roomNetwork: network(0.2) } })).result.refresh as {
      layout: { evidence: string; networkSetAside?: string };
      unchangedReason?: string;
      unchangedDetail?: string;
    };
    assert.equal(unsure.layout.evidence, 'lines');
    assert.match(unsure.layout.networkSetAside ?? '', /confidence 0\.2\d*, below 0\.6/);
    // The lines miss this room's right wall, which the network's map shows: no paint on that layout.
    assert.equal(unsure.unchangedReason, 'layout_uncertain');
    assert.match(unsure.unchangedDetail ?? '', /the room network's layout map contradicts the lines' layout on 30 % of the photo/);
    // Without the network, the lines alone, with nothing set aside.
    assert.deepEqual((await refreshPhoto(room.image, request, { lines })).result.refresh.layout, { evidence: 'lines' });
  });
});

describe('a relaid floor checked against the floor the room network sees', { timeout: TIMEOUT_MS }, () => {
  const room = paintedRoom();
  const { width, height } = room.image;
  /**
   * The drawn room's maps as a network would see them, at half the photo's size (a network's maps are smaller than the
   * photo), with what it calls floor given per photo pixel.
   */
  const networkSeeing = (floor: (p: number) => boolean) => async (_working: RawImage): Promise<RoomSegmentation> => {
    const [w, h] = [width / 2, height / 2];
    const at = (i: number) => 2 * Math.floor(i / w) * width + 2 * (i % w);
    return {
      width: w,
      height: h,
      visible: Uint8Array.from({ length: w * h }, (_, i) => {
        const p = at(i);
        return VISIBLE_CLASSES.indexOf(room.window[p] ? 'window' : floor(p) ? 'floor' : room.labels[p] === 1 ? 'ceiling' : 'wall');
      }),
      layout: Uint8Array.from({ length: w * h }, (_, i) => room.labels[at(i)]!),
      layoutConfidence: new Float32Array(w * h).fill(1),
      edges: new Float32Array(w * h),
    };
  };
  const lines = { layout: lsdLineSource(), name: 'lsd', mlsd: false };
  const relay = (roomNetwork?: ReturnType<typeof networkSeeing>) =>
    refreshPhoto(room.image, { transformation: 'floor', value: 'tile', material: floorMaterial('tile')!, seed: 3 }, { lines: roomNetwork ? { ...lines, roomNetwork } : lines });
  const isFloor = (p: number) => room.labels[p] === 0;
  /** 40 pixels of the walls above the floor: floor the layout does not reach, as where a layout misplaced a wall. */
  const floorUnderWalls = (() => {
    const band = new Uint8Array(width * height);
    for (let x = 0; x < width; x++) {
      let y = height - 1;
      while (y >= 0 && room.labels[y * width + x] === 0) y--;
      for (let k = 0; k < 40 && y - k >= 0; k++) if (room.labels[(y - k) * width + x]! >= 2 && !room.window[(y - k) * width + x]) band[(y - k) * width + x] = 1;
    }
    return band;
  })();

  it('relays a floor the network sees where the layout has it, reporting how much of it the new floor reaches', async () => {
    const done = await relay(networkSeeing(isFloor));
    const refresh = done.result.refresh as { unchanged: boolean; floorSeen: { leftShare: number; relaidOnFloorShare: number; share: number } };
    assert.equal(refresh.unchanged, false, JSON.stringify(refresh));
    assert.ok(refresh.floorSeen.leftShare < 0.03, JSON.stringify(refresh.floorSeen));
    assert.ok(refresh.floorSeen.relaidOnFloorShare > 0.95, JSON.stringify(refresh.floorSeen));
    let relaid = 0;
    for (let p = 0; p < width * height; p++) {
      const same = sameBytes(done.image.data, room.image.data, p);
      if (room.labels[p] !== 0 && room.pure[p]) assert.ok(same, `pixel ${p % width},${Math.floor(p / width)} off the floor changed`);
      if (room.window[p]) assert.ok(same, `window pixel ${p % width},${Math.floor(p / width)} changed`);
      if (!same) assert.equal(done.changeMask?.[p], 255, `pixel ${p % width},${Math.floor(p / width)} changed outside the change mask`);
      if (!same && room.labels[p] === 0) relaid++;
    }
    const floorPixels = room.labels.reduce((n, l) => n + (l === 0 ? 1 : 0), 0);
    assert.ok(relaid > 0.9 * floorPixels, `${relaid} of ${floorPixels} floor pixels relaid`);
  });

  it('leaves the photo unchanged (floor_incomplete) where the network sees floor the new floor would not reach', async () => {
    const done = await relay(networkSeeing((p) => isFloor(p) || floorUnderWalls[p] === 1));
    const refresh = done.result.refresh as { unchangedReason?: string; unchangedDetail?: string; floorSeen: { leftShare: number } };
    assert.equal(refresh.unchangedReason, 'floor_incomplete', JSON.stringify(refresh));
    assert.ok(refresh.floorSeen.leftShare > 0.03, JSON.stringify(refresh.floorSeen));
    assert.match(refresh.unchangedDetail ?? '', /stop short of \d+ % of the floor the room network sees/);
    assert.equal(done.changeMask, undefined);
    assert.ok(Buffer.from(done.image.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
  });

  it('leaves the photo unchanged (floor_not_recognised) where the network sees no floor where the new one would go', async () => {
    const done = await relay(networkSeeing(() => false));
    assert.equal(done.result.refresh.unchangedReason, 'floor_not_recognised', JSON.stringify(done.result.refresh));
    assert.match(done.result.refresh.unchangedDetail as string, /the room network sees floor on 0 % of what would be relaid/);
    assert.ok(Buffer.from(done.image.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
  });

  it('relays no floor without the network (floor_unchecked): nothing could tell a patchwork', async () => {
    const done = await relay();
    assert.equal(done.result.refresh.unchangedReason, 'floor_unchecked', JSON.stringify(done.result.refresh));
    assert.ok(Buffer.from(done.image.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
  });
});

describe('openings that look like their wall', { timeout: TIMEOUT_MS }, () => {
  const room = paintedRoom();
  const { width, height } = room.image;
  /**
   * A rectangle of plain wall, 40 × 50 pixels, with 15 pixels of the same wall face all round it and 12 pixels from the
   * window: a bare stretch of wall in the middle of a wall.
   */
  const bareWall = (() => {
    const nearWindow = dilateRound(room.window, width, height, 12);
    const plainAt = (x: number, y: number, face: number) => room.wall[y * width + x] === 1 && room.labels[y * width + x] === face && !nearWindow[y * width + x];
    for (let y0 = 15; y0 + 65 <= height; y0 += 5) {
      for (let x0 = 15; x0 + 55 <= width; x0 += 5) {
        const face = room.labels[y0 * width + x0]!;
        let plain = true;
        for (let y = y0 - 15; y < y0 + 65 && plain; y++) for (let x = x0 - 15; x < x0 + 55 && plain; x++) plain = plainAt(x, y, face);
        if (plain) return Uint8Array.from({ length: width * height }, (_, i) => (i % width >= x0 && i % width < x0 + 40 && Math.floor(i / width) >= y0 && Math.floor(i / width) < y0 + 50 ? 1 : 0));
      }
    }
    throw new Error('no bare wall in the drawn room');
  })();

  it('tells a bare stretch of wall from the window: the same outline holds nothing of its own on the wall', () => {
    const planes = downsampleToPlanes(room.image, 1024);
    const face = (mask: Uint8Array) => {
      const label = room.labels[mask.indexOf(1)]!;
      return Uint8Array.from(room.labels, (l) => (l === label ? 1 : 0));
    };
    assert.equal(looksLikeItsWall(planes, bareWall, face(bareWall)), true);
    // The window's glass and frame, on the same terms.
    assert.equal(looksLikeItsWall(planes, room.window, face(room.window)), false);
  });

  /** The drawn room's maps as a network would see them, with `extra` pixels seen as `kind` too. */
  const networkSeeing = (extra: Uint8Array, kind: 'window' | 'door') => async (_working: RawImage): Promise<RoomSegmentation> => ({
    width,
    height,
    visible: Uint8Array.from(room.labels, (face, p) => VISIBLE_CLASSES.indexOf(room.window[p] ? 'window' : extra[p] ? kind : face === 0 ? 'floor' : face === 1 ? 'ceiling' : 'wall')),
    layout: room.labels.slice(),
    layoutConfidence: new Float32Array(width * height).fill(1),
    edges: new Float32Array(width * height),
  });
  const repaint = (roomNetwork: ReturnType<typeof networkSeeing>) =>
    refreshPhoto(room.image, { transformation: 'walls', value: 'terracotta', paint: PAINT_COLOURS.terracotta }, { lines: { layout: lsdLineSource(), name: 'lsd', mlsd: false, roomNetwork } });

  it('leaves the walls unchanged (walls_patchy) where a window the network sees on a bare wall would be a patch of old paint', async () => {
    const done = await repaint(networkSeeing(bareWall, 'window'));
    const refresh = done.result.refresh;
    assert.equal(refresh.unchanged, true, JSON.stringify(refresh));
    assert.equal(refresh.unchangedReason, 'walls_patchy');
    assert.match(refresh.unchangedDetail as string, /as plain as the wall around it/);
    assert.ok(Buffer.from(done.image.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
    // The same room without that window is repainted: the refusal is the window's.
    assert.equal((await repaint(networkSeeing(new Uint8Array(width * height), 'window'))).result.refresh.unchanged, false);
  });

  it('never paints over a door as plain as the wall that reaches the floor', async () => {
    // The bare wall's columns, from its top down to the floor: what a white door flush with a white wall looks like.
    const door = bareWall.slice();
    const top = Math.floor(bareWall.indexOf(1) / width);
    for (let x = 0; x < width; x++) {
      if (!bareWall[top * width + x]) continue;
      for (let y = top; y < height && room.labels[y * width + x] !== 0; y++) if (room.wall[y * width + x]) door[y * width + x] = 1;
    }
    const done = await repaint(networkSeeing(door, 'door'));
    const refresh = done.result.refresh;
    // Painted around, it would be a patch of old paint too: the walls come back as they were, for that reason.
    assert.equal(refresh.unchangedReason, 'walls_patchy', JSON.stringify(refresh));
    assert.match(refresh.unchangedDetail as string, /as plain as the wall around it/);
    assert.ok(Buffer.from(done.image.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
  });
});

describe('POST /v1/refresh', { timeout: TIMEOUT_MS }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const run = async (payload: object) => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/refresh', headers: t.auth, payload });
    assert.equal(response.statusCode, 200, response.body);
    const job = (await t.app.inject({ method: 'GET', url: `/v1/job/${response.headers['x-job-id']}`, headers: t.auth })).json();
    assert.equal(job.status, 'success', JSON.stringify(job.error));
    const output = await sharp(Buffer.from(response.json().base64, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return { job, output };
  };

  it('repaints the walls of a room photo: the window untouched, every change inside the change mask', async () => {
    const room = paintedRoom(320, 240);
    const png = await sharp(Buffer.from(room.image.data), { raw: { width: 320, height: 240, channels: 3 } }).png().toBuffer();
    const { job, output } = await run({ url: dataUrl(png), transformation: 'walls', value: 'terracotta' });
    const refresh = job.result.refresh;
    assert.equal(refresh.unchanged, false, JSON.stringify(refresh));
    assert.equal(refresh.paint, PAINT_COLOURS.terracotta);
    assert.equal(job.mode, 'refresh');
    const maskResponse = await t.app.inject({ method: 'GET', url: new URL(job.result.changeMask).pathname });
    assert.equal(maskResponse.statusCode, 200);
    const mask = await sharp(maskResponse.rawPayload).toColourspace('b-w').raw().toBuffer();
    let changed = 0;
    for (let p = 0; p < 320 * 240; p++) {
      const same = sameBytes(output.data, room.image.data, p);
      if (!mask[p]) assert.ok(same, `pixel ${p % 320},${Math.floor(p / 320)} changed outside the change mask`);
      if (room.window[p]) assert.ok(same, `window pixel ${p % 320},${Math.floor(p / 320)} changed`);
      if (mask[p]) changed++;
    }
    assert.equal(refresh.changedPixels, changed);
    assert.ok(changed > 0.3 * 320 * 240, `${changed} pixels repainted`);
  });

  it('never paints or floors over a sofa of the walls’ colour, a rug or small objects: they stay bit-identical, or the photo comes back unchanged with the reason', async () => {
    const room = paintedRoom(320, 240, 18, -7, { furnished: true });
    const png = await sharp(Buffer.from(room.image.data), { raw: { width: 320, height: 240, channels: 3 } }).png().toBuffer();
    for (const [transformation, value, reason] of [['walls', 'deep blue', 'room_furnished'], ['floor', 'parquet', 'surface_cluttered']] as const) {
      const { job, output } = await run({ url: dataUrl(png), transformation, value });
      const refresh = job.result.refresh;
      if (refresh.unchanged) {
        assert.equal(refresh.unchangedReason, reason, JSON.stringify(refresh));
        assert.ok(Buffer.from(output.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
        continue;
      }
      for (let p = 0; p < 320 * 240; p++) {
        if (room.furniture[p]) assert.ok(sameBytes(output.data, room.image.data, p), `${transformation}: furnishing pixel ${p % 320},${Math.floor(p / 320)} changed (${JSON.stringify(refresh.surface)})`);
      }
    }
  });

  it('answers walls whose paint would be a patchwork unchanged with walls_patchy: a wall face left partly in its old white', async () => {
    const room = paintedRoom(320, 240, 18, -7, { oldWhiteBlotches: true });
    const png = await sharp(Buffer.from(room.image.data), { raw: { width: 320, height: 240, channels: 3 } }).png().toBuffer();
    const { job, output } = await run({ url: dataUrl(png), transformation: 'walls', value: 'terracotta' });
    const refresh = job.result.refresh;
    assert.equal(refresh.unchanged, true, JSON.stringify(refresh));
    assert.equal(refresh.unchangedReason, 'walls_patchy', JSON.stringify(refresh));
    assert.ok(refresh.patchiness.worstFaceUnpainted > 0.15, JSON.stringify(refresh.patchiness));
    assert.equal(job.result.changeMask, undefined);
    assert.ok(Buffer.from(output.data).equals(Buffer.from(room.image.data)), 'the photo comes back as it was');
  });

  it('answers a photo whose room it cannot make out unchanged, with the reason', async () => {
    const width = 160;
    const height = 120;
    const pixels = Buffer.alloc(width * height * 3);
    // A soft glow and no straight edge: nothing for the geometry to hold on to.
    for (let p = 0; p < width * height; p++) pixels.fill(Math.round(200 - 0.8 * Math.hypot((p % width) - 60, Math.floor(p / width) - 50)), p * 3, p * 3 + 3);
    const png = await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
    const { job, output } = await run({ url: dataUrl(png), transformation: 'walls', value: 'olive' });
    assert.equal(job.result.refresh.unchanged, true);
    assert.match(job.result.refresh.unchangedReason, /^(layout_uncertain|no_walls_in_view|walls_not_recognised)$/);
    assert.ok(job.result.refresh.unchangedDetail.length > 0);
    assert.equal(job.result.changeMask, undefined);
    assert.ok(Buffer.from(output.data).equals(pixels), 'the photo comes back as it was');
  });

  it('relays the floor of a room photo with the room networks: every change on the floor, the floor report in the job', async () => {
    const room = paintedRoom(320, 240);
    const png = await sharp(Buffer.from(room.image.data), { raw: { width: 320, height: 240, channels: 3 } }).png().toBuffer();
    const { job, output } = await run({ url: dataUrl(png), transformation: 'floor', value: 'tile' });
    const refresh = job.result.refresh;
    // The shipped networks see this drawn room's floor where its layout has it.
    assert.equal(refresh.unchanged, false, JSON.stringify(refresh));
    assert.equal(refresh.layout.evidence, 'network');
    assert.equal(refresh.material.id, 'tile');
    assert.ok(refresh.floorSeen.leftShare <= 0.03, JSON.stringify(refresh.floorSeen));
    for (let p = 0; p < 320 * 240; p++) {
      if (room.labels[p] !== 0 && room.pure[p]) assert.ok(sameBytes(output.data, room.image.data, p), `pixel ${p % 320},${Math.floor(p / 320)} off the floor changed`);
    }
  });

  it('refuses an unknown floor material with 400 naming the known ones, before any job', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/v1/refresh', headers: t.auth, payload: { url: 'https://example.com/room.jpg', transformation: 'floor', value: 'bamboo' } });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'validation_failed');
    assert.match(response.json().errors[0].message, /"parquet".*"hardwood"/);
  });
});
