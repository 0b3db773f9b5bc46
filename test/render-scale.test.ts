import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RenderScene } from '../src/repositories/blender/render-scene.js';
import { scaleRenderScene } from '../src/staging/render-setup.js';
import { MAX_RENDER_PIXELS, renderPixelLimit } from '../src/services/staging/render-pieces.js';
import { resampleLayer } from '../src/vision/resample-layer.js';

function sceneOf(width: number, height: number, region: RenderScene['region']): RenderScene {
  return {
    width,
    height,
    region,
    samples: 16,
    threads: 0,
    seed: 1,
    camera: { focal: width * 0.8, cx: width * 0.52, cy: height * 0.47, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], position: [0, 0, 0] },
    surfaces: [],
    lights: [],
    ambient: { color: [1, 1, 1], strength: 0 },
    pieces: [],
    calibration: { samples: [{ x: 100, y: 200, target: 0.5 }] },
  };
}

/** Pinhole projection of a camera-frame point (rotation is the identity above). */
function project(camera: RenderScene['camera'], p: [number, number, number]): [number, number] {
  return [camera.cx + (camera.focal * p[0]) / p[2], camera.cy + (camera.focal * p[1]) / p[2]];
}

describe('scaleRenderScene', () => {
  it('leaves a photo under the cap as it is', () => {
    const scene = sceneOf(1731, 1155, { x0: 100, y0: 200, x1: 500, y1: 400 });
    const { scene: scaled, grid } = scaleRenderScene(scene, 4_000_000);
    assert.equal(scaled, scene);
    assert.deepEqual(grid, { scale: 1, offsetY: 0, x0: 100, y0: 200, width: 400, height: 200 });
  });

  it('renders a 12 MP photo as one of the capped size, with the same camera and the region covered', () => {
    const region = { x0: 1201, y0: 1503, x1: 2555, y1: 1977 };
    const scene = sceneOf(4240, 2830, region);
    const { scene: scaled, grid } = scaleRenderScene(scene, 4_000_000);
    assert.ok(scaled.width * scaled.height <= 4_010_000 && scaled.width * scaled.height > 3_900_000);
    assert.ok(Math.abs(grid.offsetY) <= 0.5 + 1e-9);
    // Every world point lands where the grid says: u' = scale · u, v' = scale · v + offsetY.
    for (const p of [[0.3, -0.2, 2], [-1, 0.7, 5], [0.01, 0.02, 1]] as [number, number, number][]) {
      const [u, v] = project(scene.camera, p);
      const [u2, v2] = project(scaled.camera, p);
      assert.ok(Math.abs(u2 - grid.scale * u) < 1e-9);
      assert.ok(Math.abs(v2 - (grid.scale * v + grid.offsetY)) < 1e-9);
    }
    // Blender keeps the frame's horizontal extent and the principal point as fractions of the width.
    assert.ok(Math.abs(scaled.camera.focal / scaled.width - scene.camera.focal / scene.width) < 1e-12);
    assert.ok(Math.abs((scaled.camera.cy - scaled.height / 2) / scaled.width - (scene.camera.cy - scene.height / 2) / scene.width) < 1e-12);
    // The rendered region holds the scaled region with a margin for the resampling kernel.
    const r = scaled.region!;
    assert.ok(r.x0 <= grid.scale * region.x0 - 2 && r.x1 >= grid.scale * region.x1 + 2);
    assert.ok(r.y0 <= grid.scale * region.y0 + grid.offsetY - 2 && r.y1 >= grid.scale * region.y1 + grid.offsetY + 2);
    assert.deepEqual([grid.x0, grid.y0, grid.width, grid.height], [r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0]);
    assert.deepEqual(scaled.calibration!.samples[0], { x: 100 * grid.scale, y: 200 * grid.scale + grid.offsetY, target: 0.5 });
  });
});

describe('resampleLayer', () => {
  const source = (width: number, height: number, f: (x: number, y: number) => number, alpha: (x: number, y: number) => number = () => 1) => {
    const pieces = new Float32Array(width * height * 4);
    const shadow = new Float32Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        pieces.set([f(x, y) * alpha(x, y), 0.1 * alpha(x, y), 0.2 * alpha(x, y), alpha(x, y)], i * 4);
        shadow.set([f(x, y), f(x, y), f(x, y)], i * 3);
      }
    }
    return { width, height, pieces, shadow };
  };

  it('returns every pixel unchanged at scale 1', () => {
    const src = source(20, 10, (x, y) => ((x * 7 + y * 13) % 11) / 11, (x) => (x < 5 ? 0 : x < 7 ? 0.5 : 1));
    const out = resampleLayer(src, { scale: 1, offsetY: 0, x0: 3, y0: 2 }, { x0: 3, y0: 2, width: 20, height: 10 });
    assert.deepEqual(out.pieces, src.pieces);
    assert.deepEqual(out.shadow, src.shadow);
  });

  it('reproduces a linear ramp where the render is scaled and offset', () => {
    // Render pixel centre (i + 0.5) holds f = i + 0.5: the continuous render coordinate.
    const src = source(40, 30, (x) => (x + 0.5) / 40);
    const grid = { scale: 0.5, offsetY: 0.25, x0: 10, y0: 5 };
    const out = resampleLayer(src, grid, { x0: 30, y0: 20, width: 40, height: 30 });
    for (let y = 0; y < out.height; y++) {
      for (let x = 4; x < out.width - 4; x++) {
        const expected = (grid.scale * (30 + x + 0.5) - grid.x0) / 40;
        assert.ok(Math.abs(out.shadow[(y * out.width + x) * 3]! - expected) < 1e-5, `${x},${y}`);
      }
    }
  });

  it('keeps coverage in [0, 1] and colour non-negative across a hard edge', () => {
    const src = source(16, 16, () => 0.9, (x) => (x < 8 ? 0 : 1));
    const out = resampleLayer(src, { scale: 0.5, offsetY: 0, x0: 0, y0: 0 }, { x0: 0, y0: 0, width: 32, height: 32 });
    for (let i = 0; i < 32 * 32; i++) {
      const a = out.pieces[i * 4 + 3]!;
      assert.ok(a >= 0 && a <= 1);
      for (let c = 0; c < 3; c++) assert.ok(out.pieces[i * 4 + c]! >= 0);
      if (a === 0) assert.equal(out.pieces[i * 4], 0);
    }
  });
});

describe('renderPixelLimit', () => {
  const photo = { width: 1731, height: 1155 };
  const regionPixelsAt = (limit: number, regions: { x0: number; y0: number; x1: number; y1: number }[]) =>
    (regions.reduce((n, r) => n + (r.x1 - r.x0) * (r.y1 - r.y0), 0) * limit) / (photo.width * photo.height);

  it('keeps the photo cap where the regions are small', () => {
    const regions = [{ x0: 100, y0: 600, x1: 700, y1: 1000 }];
    assert.equal(renderPixelLimit(photo, regions, { maxRenderPixels: 1_200_000, maxRegionPixels: 500_000 }), 1_200_000);
    assert.equal(renderPixelLimit({ width: 4240, height: 2830 }, regions, {}), MAX_RENDER_PIXELS);
    assert.equal(renderPixelLimit(photo, regions, {}), photo.width * photo.height);
  });

  it('renders regions that cover most of the frame smaller, to the region budget', () => {
    const regions = [
      { x0: 0, y0: 200, x1: 1000, y1: 1155 },
      { x0: 1200, y0: 300, x1: 1731, y1: 1100 },
    ];
    const limit = renderPixelLimit(photo, regions, { maxRenderPixels: 1_200_000, maxRegionPixels: 500_000 });
    assert.ok(limit < 1_200_000);
    assert.ok(Math.abs(regionPixelsAt(limit, regions) - 500_000) < 1);
    // And what scaleRenderScene then renders stays within it (a few pixels of margin per side aside).
    const rendered = regions.reduce((n, region) => {
      const { grid } = scaleRenderScene(sceneOf(photo.width, photo.height, region), limit);
      return n + grid.width * grid.height;
    }, 0);
    assert.ok(rendered < 520_000, `rendered ${rendered} pixels`);
  });

  it('never renders larger than the photo', () => {
    const small = { width: 640, height: 480 };
    assert.equal(renderPixelLimit(small, [{ x0: 0, y0: 0, x1: 100, y1: 100 }], { maxRenderPixels: 1_200_000, maxRegionPixels: 500_000 }), 640 * 480);
  });
});
