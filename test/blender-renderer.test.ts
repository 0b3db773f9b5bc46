import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../src/errors.js';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import type { RenderPasses, RenderScene } from '../src/repositories/blender/render-scene.js';
import { encodeImage } from '../src/repositories/image-codec.js';
import type { RawImage } from '../src/vision/raw-image.js';

/** Only a hang reaches this: a tiny render takes seconds. */
const TIMEOUT_MS = 5 * 60_000;

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

type Vec3 = [number, number, number];

// A 64×48 photo's camera 1.4 m above the floor, looking along +Y and 20° down, its principal point off centre.
const W = 64;
const H = 48;
const PITCH = (20 * Math.PI) / 180;
const CAMERA: RenderScene['camera'] = {
  focal: 48,
  cx: 28,
  cy: 20,
  // OpenCV rows: x right = +X, y down, z forward.
  rotation: [1, 0, 0, 0, -Math.sin(PITCH), -Math.cos(PITCH), 0, Math.cos(PITCH), -Math.sin(PITCH)],
  position: [0, 0, 1.4],
};
const BOX_AT: Vec3 = [0.2, 3, 0];
const HALF = 0.3;

function project(X: Vec3): [number, number] {
  const R = CAMERA.rotation;
  const d = [X[0] - CAMERA.position[0], X[1] - CAMERA.position[1], X[2] - CAMERA.position[2]];
  const c = [0, 1, 2].map((r) => R[3 * r]! * d[0]! + R[3 * r + 1]! * d[1]! + R[3 * r + 2]! * d[2]!);
  return [(CAMERA.focal * c[0]!) / c[2]! + CAMERA.cx, (CAMERA.focal * c[1]!) / c[2]! + CAMERA.cy];
}

/** Where the ray through pixel (u, v) meets the floor, or null above the horizon. */
function floorPoint(u: number, v: number): Vec3 | null {
  const R = CAMERA.rotation;
  const c = [(u - CAMERA.cx) / CAMERA.focal, (v - CAMERA.cy) / CAMERA.focal, 1];
  // World direction = Rᵀ c.
  const d = [0, 1, 2].map((k) => R[k]! * c[0]! + R[3 + k]! * c[1]! + R[6 + k]! * c[2]!);
  if (d[2]! >= 0) return null;
  const t = -CAMERA.position[2] / d[2]!;
  return [CAMERA.position[0] + t * d[0]!, CAMERA.position[1] + t * d[1]!, 0];
}

/** A closed 0.6 m cube standing on the floor, outward faces. */
function cube(): { vertices: number[]; faces: number[][] } {
  const corners: Vec3[] = [];
  for (const z of [0, 2 * HALF]) for (const [x, y] of [[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]] as const) corners.push([x, y, z]);
  return {
    vertices: corners.flat(),
    faces: [
      [0, 3, 2, 1],
      [4, 5, 6, 7],
      [0, 1, 5, 4],
      [1, 2, 6, 5],
      [2, 3, 7, 6],
      [3, 0, 4, 7],
    ],
  };
}

/** The convex hull of the cube's projected corners, counter-clockwise in pixel space (y down). */
function boxOutline(): [number, number][] {
  const points = cube().vertices.reduce<[number, number][]>((acc, _, i, v) => {
    if (i % 3 === 0) acc.push(project([v[i]! + BOX_AT[0], v[i + 1]! + BOX_AT[1], v[i + 2]! + BOX_AT[2]]));
    return acc;
  }, []);
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const half = (list: [number, number][]) => {
    const hull: [number, number][] = [];
    for (const p of list) {
      while (hull.length >= 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, p) <= 0) hull.pop();
      hull.push(p);
    }
    hull.pop();
    return hull;
  };
  return [...half(points), ...half([...points].reverse())];
}

/** Signed distance of a point to a convex polygon's outline: negative inside. */
function signedDistance(poly: [number, number][], p: [number, number]): number {
  let inside = true;
  let nearest = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const ex = b[0] - a[0];
    const ey = b[1] - a[1];
    if (ex * (p[1] - a[1]) - ey * (p[0] - a[0]) < 0) inside = false;
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)));
    nearest = Math.min(nearest, Math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey));
  }
  return inside ? -nearest : nearest;
}

function baseScene(): RenderScene {
  const { vertices, faces } = cube();
  return {
    width: W,
    height: H,
    samples: 8,
    threads: 0,
    seed: 1,
    camera: CAMERA,
    surfaces: [
      { name: 'floor', role: 'catcher', polygon: [[-3, 0.5, 0], [3, 0.5, 0], [3, 6, 0], [-3, 6, 0]] },
      { name: 'back', role: 'catcher', polygon: [[-3, 6, 0], [3, 6, 0], [3, 6, 2.8], [-3, 6, 2.8]] },
    ],
    // As the staging service writes it: the photo itself comes beside the scene.
    photo: { path: '', irradiance: 1 },
    lights: [{ kind: 'area', center: [-0.5, 2.5, 2.6], direction: [0, 0, -1], up: [0, 1, 0], width: 1, height: 1, color: [1, 1, 1], power: 200 }],
    ambient: { color: [1, 1, 1], strength: 0.1 },
    pieces: [
      {
        name: 'box',
        matrix: [1, 0, 0, BOX_AT[0], 0, 1, 0, BOX_AT[1], 0, 0, 1, BOX_AT[2], 0, 0, 0, 1],
        parts: [{ name: 'body', vertices, faces, material: 'paint', grain: 'z' }],
        materials: { paint: { kind: 'painted-wood', color: '#B04030', roughness: 0.5 } },
      },
    ],
  };
}

const alpha = (p: RenderPasses, x: number, y: number) => p.pieces[4 * (y * p.width + x) + 3]!;
const shadow = (p: RenderPasses, x: number, y: number) => (p.shadow[3 * (y * p.width + x)]! + p.shadow[3 * (y * p.width + x) + 1]! + p.shadow[3 * (y * p.width + x) + 2]!) / 3;

/** Mean linear RGB of the fully covered pixels of the pieces pass. */
function meanOpaqueColour(p: RenderPasses): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < p.width * p.height; i++) {
    if (p.pieces[4 * i + 3]! > 0.999) {
      sum += p.pieces[4 * i]! + p.pieces[4 * i + 1]! + p.pieces[4 * i + 2]!;
      n++;
    }
  }
  return sum / (3 * n);
}

const installed = onPath('blender');

describe('BlenderRenderer', { skip: installed ? false : 'Blender is not installed (apt-get install -y blender)', timeout: TIMEOUT_MS }, () => {
  const renderer = new BlenderRenderer();
  // A photo of another size than the render's: it is stretched over the camera's frame.
  const photo: RawImage = { data: new Uint8Array(40 * 30 * 3).fill(150), width: 40, height: 30, channels: 3 };
  const scene = baseScene();
  let tmp: string;
  let full: RenderPasses;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'blender-renderer-test-'));
    full = await renderer.render(scene, { photo });
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('finds Blender and its version', { timeout: TIMEOUT_MS }, async () => {
    const availability = await renderer.available();
    assert.ok(availability.ok, availability.ok ? '' : availability.reason);
    assert.match(availability.version, /^\d+\.\d+/);
    assert.equal(await renderer.available(), availability);
  });

  it('renders the pieces where the camera of the contract projects them, opaque inside, transparent outside', { timeout: TIMEOUT_MS }, () => {
    assert.equal(full.width, W);
    assert.equal(full.height, H);
    assert.equal(full.pieces.length, W * H * 4);
    assert.equal(full.shadow.length, W * H * 3);
    assert.equal(full.lightScale, 1);
    assert.ok(full.seconds > 0);
    const outline = boxOutline();
    let inside = 0;
    let outside = 0;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = signedDistance(outline, [x + 0.5, y + 0.5]);
        if (d < -1.5) {
          inside++;
          assert.ok(alpha(full, x, y) > 0.99, `alpha ${alpha(full, x, y)} at (${x}, ${y}), ${-d} px inside the box's image`);
        } else if (d > 2) {
          outside++;
          assert.ok(alpha(full, x, y) < 0.01, `alpha ${alpha(full, x, y)} at (${x}, ${y}), ${d} px outside the box's image`);
        }
      }
    }
    assert.ok(inside > 30 && outside > 2000, `${inside} pixels inside, ${outside} outside`);
    // Premultiplied: no colour without coverage.
    for (let i = 0; i < W * H; i++) {
      for (let c = 0; c < 3; c++) assert.ok(full.pieces[4 * i + c]! <= 4 * full.pieces[4 * i + 3]! + 1e-6);
    }
  });

  it('darkens the floor next to the box and leaves a far corner of the floor as it is', { timeout: TIMEOUT_MS }, () => {
    const outline = boxOutline();
    let darkest = Infinity;
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const d = signedDistance(outline, [x + 0.5, y + 0.5]);
        const floor = floorPoint(x + 0.5, y + 0.5);
        if (d > 1.5 && d < 6 && floor && floor[1] < 6) darkest = Math.min(darkest, shadow(full, x, y));
      }
    }
    assert.ok(darkest < 0.97, `darkest shadow ratio next to the box ${darkest}`);
    // The bottom-left corner: floor, more than 1.5 m from the box.
    let sum = 0;
    let n = 0;
    for (let y = H - 6; y < H; y++) {
      for (let x = 0; x < 6; x++) {
        const floor = floorPoint(x + 0.5, y + 0.5)!;
        assert.ok(Math.hypot(floor[0] - BOX_AT[0], floor[1] - BOX_AT[1]) > 1.5);
        sum += shadow(full, x, y);
        n++;
      }
    }
    assert.ok(Math.abs(sum / n - 1) <= 0.01, `mean shadow ratio in the far corner ${sum / n}`);
  });

  it('renders a region at its size, matching the same pixels of the full render', { timeout: TIMEOUT_MS }, async () => {
    const region = { x0: 16, y0: 10, x1: 49, y1: 37 };
    // The photo given by its path this time: the same pixels.
    const photoPath = path.join(tmp, 'photo.png');
    fs.writeFileSync(photoPath, (await encodeImage(photo, { format: 'png', lossless: true }, { jpegQuality: 100 })).bytes);
    const part = await renderer.render({ ...scene, region, photo: { path: photoPath, irradiance: 1 } });
    assert.equal(part.width, region.x1 - region.x0);
    assert.equal(part.height, region.y1 - region.y0);
    let sum = 0;
    let n = 0;
    for (let y = 0; y < part.height; y++) {
      for (let x = 0; x < part.width; x++) {
        const i = y * part.width + x;
        const j = (y + region.y0) * W + x + region.x0;
        for (let c = 0; c < 4; c++) sum += Math.abs(part.pieces[4 * i + c]! - full.pieces[4 * j + c]!);
        for (let c = 0; c < 3; c++) sum += Math.abs(part.shadow[3 * i + c]! - full.shadow[3 * j + c]!);
        n += 7;
      }
    }
    assert.ok(sum / n < 0.005, `mean difference from the full render ${sum / n}`);
  });

  it('scales the lights by the calibration: up when the photo is brighter than the render', { timeout: TIMEOUT_MS }, async () => {
    const floorPixels = [
      [10, 40],
      [50, 40],
      [32, 44],
      [20, 34],
      [45, 33],
    ];
    const calibration = { samples: floorPixels.map(([x, y]) => ({ x: x!, y: y!, target: 20 })) };
    const calibrated = await renderer.render({ ...scene, calibration }, { photo });
    assert.ok(calibrated.lightScale > 1, `lightScale ${calibrated.lightScale}`);
    const ratio = meanOpaqueColour(calibrated) / meanOpaqueColour(full);
    assert.ok(Math.abs(ratio / calibrated.lightScale - 1) < 0.2, `the box got ${ratio}× brighter with lightScale ${calibrated.lightScale}`);
  });

  it("fails with the script's message on a scene it cannot build", { timeout: TIMEOUT_MS }, async () => {
    const bad = structuredClone(scene);
    bad.pieces[0]!.materials.paint!.kind = 'unobtainium' as never;
    await assert.rejects(renderer.render(bad, { photo }), (error: unknown) => {
      assert.ok(error instanceof AppError);
      assert.equal(error.code, 'render_failed');
      assert.match(error.message, /unknown kind 'unobtainium'/);
      return true;
    });
  });

  it('stops Blender on abort and leaves nothing in its work directory', { timeout: TIMEOUT_MS }, async () => {
    const workDir = path.join(tmp, 'work');
    const local = new BlenderRenderer({ workDir });
    const controller = new AbortController();
    const rendering = local.render({ ...scene, samples: 4096 }, { photo, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(rendering, (error: unknown) => error instanceof AppError && error.code === 'job_aborted');
    assert.deepEqual(fs.readdirSync(workDir), []);
    await assert.rejects(local.render(scene, { signal: AbortSignal.abort() }), (error: unknown) => error instanceof AppError && error.code === 'job_aborted');
  });
});
