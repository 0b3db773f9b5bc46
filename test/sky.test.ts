import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCatalog, type Sky } from '../src/catalog/catalog.js';
import { linearToSrgbByte } from '../src/vision/colour.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { downsampleToPlanes } from '../src/vision/colour-planes.js';
import { detectSky } from '../src/vision/sky/detect-sky.js';
import { applyModelToImage, fitGuidedFilter } from '../src/vision/guided-filter.js';
import { renderLinearSky, type RenderSkyOptions } from '../src/vision/sky/render-sky.js';
import { replaceSky } from '../src/vision/sky/replace-sky.js';
import { computeSkyMatte } from '../src/vision/sky/sky-matte.js';
import { seededRandom } from './helpers/seeded-random.js';

const catalog = loadCatalog();
const clearBlue = catalog.sky('clear_blue')!;

type Rgb = [number, number, number];
type Point = [number, number];

/**
 * A small painter for test scenes: flat colours with a little deterministic camera noise, polygons and thick lines,
 * and a record of which pixels are sky.
 */
class Scene {
  readonly data: Uint8Array;
  readonly sky: Uint8Array;
  private random: () => number;

  constructor(
    readonly width: number,
    readonly height: number,
    seed = 7,
  ) {
    this.data = new Uint8Array(width * height * 3);
    this.sky = new Uint8Array(width * height);
    this.random = seededRandom(seed);
  }

  /** Fills every pixel for which `colour` returns a colour; `isSky` marks them in the known mask. */
  paint(colour: (x: number, y: number) => Rgb | undefined, isSky = false): this {
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const rgb = colour(x + 0.5, y + 0.5);
        if (!rgb) continue;
        const i = y * this.width + x;
        for (let c = 0; c < 3; c++) this.data[i * 3 + c] = clampByte(rgb[c]! + (this.random() - 0.5) * 6);
        this.sky[i] = isSky ? 1 : 0;
      }
    }
    return this;
  }

  polygon(points: Point[], rgb: Rgb): this {
    return this.paint((x, y) => (insidePolygon(points, x, y) ? rgb : undefined));
  }

  line(from: Point, to: Point, thickness: number, rgb: Rgb): this {
    return this.paint((x, y) => (distanceToSegment(from, to, x, y) <= thickness / 2 ? rgb : undefined));
  }

  image(): RawImage {
    return { data: this.data, width: this.width, height: this.height, channels: 3 };
  }
}

/**
 * Flat overcast sky (a touch darker toward the horizon) over a lawn, with a house with a pitched roof. The roof does
 * not overhang the walls: sky under an eave is below the first edge of its column, which sky_fix never replaces.
 */
function greySkyHouse(width = 480, height = 360): Scene {
  const horizon = Math.round(height * 0.7);
  return new Scene(width, height)
    .paint((_, y) => (y < horizon ? [212 - (y / horizon) * 14, 215 - (y / horizon) * 12, 218 - (y / horizon) * 10] : undefined), true)
    .paint((_, y) => (y >= horizon ? [86, 118, 64] : undefined))
    .polygon(rectangle(0.3 * width, 0.42 * height, 0.7 * width, horizon), [176, 150, 124])
    .polygon([[0.3 * width, 0.43 * height], [0.5 * width, 0.2 * height], [0.7 * width, 0.43 * height]], [96, 62, 52])
    .polygon(rectangle(0.45 * width, 0.55 * height, 0.55 * width, horizon), [70, 50, 40]);
}

/** Overcast sky over a lawn, a trunk and a fan of thin branches in front of the sky. */
function greySkyTree(width: number, height: number, branchWidth: number): { scene: Scene; branchPoints: Point[] } {
  const horizon = Math.round(height * 0.8);
  const scene = new Scene(width, height)
    .paint((_, y) => (y < horizon ? [205, 209, 214] : undefined), true)
    .paint((_, y) => (y >= horizon ? [86, 118, 64] : undefined));
  const trunkTop: Point = [width * 0.5, height * 0.45];
  scene.line([width * 0.5, height], trunkTop, width * 0.02, [60, 48, 40]);
  const branchPoints: Point[] = [];
  for (let k = 0; k < 7; k++) {
    const angle = Math.PI * (0.15 + (0.7 * k) / 6);
    const tip: Point = [trunkTop[0] + Math.cos(angle) * width * 0.35, trunkTop[1] - Math.sin(angle) * height * 0.4];
    scene.line(trunkTop, tip, branchWidth, [62, 50, 44]);
    // Two thirds of the way out: well clear of the trunk, where only the thin branch itself is foreground.
    branchPoints.push([trunkTop[0] + (tip[0] - trunkTop[0]) * 0.66, trunkTop[1] + (tip[1] - trunkTop[1]) * 0.66]);
  }
  return { scene, branchPoints };
}

/** A room: warm white ceiling at the top, beige walls, a bright window, a wooden floor. */
function interior(width = 480, height = 360, withWindow = true, ceiling: Rgb = [236, 229, 216]): Scene {
  const scene = new Scene(width, height)
    .paint(() => [196, 182, 160])
    .polygon([[0, 0], [width, 0], [width * 0.8, height * 0.25], [width * 0.2, height * 0.25]], ceiling)
    .polygon([[0, height], [width * 0.2, height * 0.75], [width * 0.8, height * 0.75], [width, height]], [140, 98, 62])
    .polygon([[0, 0], [width * 0.2, height * 0.25], [width * 0.2, height * 0.75], [0, height]], [176, 162, 142]);
  if (withWindow) scene.polygon(rectangle(width * 0.4, height * 0.35, width * 0.6, height * 0.62), [250, 252, 255]);
  return scene;
}

/** A clear blue sky, deep at the top and paler at the horizon, over a house and a lawn. */
function blueSkyHouse(width = 480, height = 360): Scene {
  const horizon = Math.round(height * 0.7);
  return new Scene(width, height)
    .paint((_, y) => {
      const t = y / horizon;
      return y < horizon ? [60 + 90 * t, 115 + 70 * t, 205 + 30 * t] : undefined;
    }, true)
    .paint((_, y) => (y >= horizon ? [86, 118, 64] : undefined))
    .polygon(rectangle(0.3 * width, 0.42 * height, 0.7 * width, horizon), [176, 150, 124])
    .polygon([[0.26 * width, 0.43 * height], [0.5 * width, 0.2 * height], [0.74 * width, 0.43 * height]], [96, 62, 52]);
}

describe('sky detection', () => {
  it('finds a grey sky over a house with a pitched roof', () => {
    const scene = greySkyHouse();
    const detection = detectSky(scene.image());
    assert.equal(detection.classification.verdict, 'grey');
    const matte = computeSkyMatte(scene.image(), detection.planes, detection.segmentation);
    // The scene is at the working resolution and its edges are hard, so only a pixel or two along the roof and the
    // horizon may disagree: about 1,500 boundary pixels against some 100,000 sky pixels.
    assert.ok(iou(matte, scene.sky) >= 0.97, `IoU ${iou(matte, scene.sky)}`);
  });

  it('keeps the roof edge sharp when the photo is larger than the working copy', () => {
    const scene = greySkyHouse(1600, 1200);
    const detection = detectSky(scene.image());
    const matte = computeSkyMatte(scene.image(), detection.planes, detection.segmentation);
    // Working at 640 px, 2.5 full-resolution pixels per working pixel: a boundary band of ~3 px may go either way.
    assert.ok(iou(matte, scene.sky) >= 0.97, `IoU ${iou(matte, scene.sky)}`);
    // Just inside the roof and just outside it, along the left slope.
    // The left slope passes x = 0.35 w at y = 0.3725 h.
    const insideRoof = matte[Math.round(0.39 * 1200) * 1600 + Math.round(0.35 * 1600)]!;
    const aboveRoof = matte[Math.round(0.355 * 1200) * 1600 + Math.round(0.35 * 1600)]!;
    assert.ok(insideRoof < 0.05 && aboveRoof > 0.95, `roof ${insideRoof}, sky ${aboveRoof}`);
  });

  it('does not fill in thin branches, even ones thinner than a working pixel', () => {
    for (const [width, height, branchWidth] of [[480, 360, 2], [1600, 1200, 2]] as const) {
      const { scene, branchPoints } = greySkyTree(width, height, branchWidth);
      // No verdict here: the sky inside the fan, below the first branch of its column, is not sky for sky_fix, and
      // being as bright as the sky it makes the classifier doubt (the safe error); this is about the matte.
      const detection = detectSky(scene.image());
      const matte = computeSkyMatte(scene.image(), detection.planes, detection.segmentation);
      for (const [x, y] of branchPoints) {
        const value = matte[Math.floor(y) * width + Math.floor(x)]!;
        assert.ok(value < 0.5, `${width}×${height}: branch pixel (${x.toFixed(0)}, ${y.toFixed(0)}) has matte ${value.toFixed(2)}`);
      }
      // Open sky between the branches is still sky.
      const between = matte[Math.round(height * 0.1) * width + Math.round(width * 0.44)]!;
      assert.ok(between > 0.95, `sky between branches ${between}`);
      // Sky inside the fan stays (below the first branch of its column); nothing that is not sky is ever taken.
      let taken = 0;
      let wrong = 0;
      for (let i = 0; i < matte.length; i++) {
        if (matte[i]! < 0.5) continue;
        taken++;
        if (!scene.sky[i]) wrong++;
      }
      assert.ok(wrong / taken < 0.01, `${wrong} of ${taken} matte pixels are not sky`);
    }
  });
});

describe('replaceSky', () => {
  it('replaces a grey sky with a blue one and leaves everything else bit-identical', () => {
    const scene = greySkyHouse();
    const { image, report } = replaceSky(scene.image(), catalog.defaultSky);
    assert.equal(report.replaced, true);
    assert.equal(report.reason, 'replaced');
    assert.equal(report.verdict, 'grey');
    assert.ok(report.skyFraction > 0.5 && report.skyFraction < 0.7, `sky fraction ${report.skyFraction}`);
    const top = rowMeans(image).slice(0, 10);
    const blueExcess = top.reduce((sum, row) => sum + row.b - row.r, 0) / top.length;
    assert.ok(blueExcess > 40, `top of the new sky: blue exceeds red by ${blueExcess}`);
    // Below the skyline (house, lawn) not one byte changes: sky_fix does not relight the scene.
    const input = scene.image();
    for (let y = Math.round(0.45 * 360); y < 360; y++) {
      for (let x = Math.round(0.31 * 480); x < Math.round(0.69 * 480); x++) {
        assert.deepEqual(pixel(image, x, y), pixel(input, x, y), `house pixel (${x}, ${y})`);
      }
    }
  });

  it('is deterministic', () => {
    const scene = greySkyHouse();
    const first = replaceSky(scene.image(), catalog.defaultSky);
    const second = replaceSky(scene.image(), catalog.defaultSky);
    assert.deepEqual(first.image.data, second.image.data);
    assert.deepEqual(first.report, second.report);
  });

  it('leaves a room with a white ceiling alone: no sky', () => {
    for (const scene of [interior(), interior(480, 360, false, [232, 232, 230])]) {
      const input = scene.image();
      const { image, report } = replaceSky(input, catalog.defaultSky);
      assert.equal(report.replaced, false);
      assert.equal(report.reason, 'no_sky', report.because);
      assert.equal(image, input);
    }
  });

  it('leaves a blue sky alone', () => {
    const input = blueSkyHouse().image();
    const { image, report } = replaceSky(input, catalog.defaultSky);
    assert.equal(report.reason, 'already_blue');
    assert.equal(report.verdict, 'blue');
    assert.equal(image, input);
  });

  it('does not colourise greyscale photos', () => {
    const scene = greySkyHouse(160, 120);
    const rgb = scene.image();
    const grey: RawImage = { data: new Uint8Array(160 * 120), width: 160, height: 120, channels: 1 };
    for (let i = 0; i < grey.data.length; i++) grey.data[i] = rgb.data[i * 3 + 1]!;
    assert.equal(replaceSky(grey, catalog.defaultSky).report.reason, 'greyscale');
    // The same, stored as RGB.
    const neutral: RawImage = { data: new Uint8Array(160 * 120 * 3), width: 160, height: 120, channels: 3 };
    for (let i = 0; i < neutral.data.length; i++) neutral.data[i] = grey.data[Math.floor(i / 3)]!;
    assert.equal(replaceSky(neutral, catalog.defaultSky).report.reason, 'greyscale');
  });

  it('keeps the alpha channel', () => {
    const rgb = greySkyHouse().image();
    const rgba: RawImage = { data: new Uint8Array(rgb.width * rgb.height * 4), width: rgb.width, height: rgb.height, channels: 4 };
    for (let i = 0; i < rgb.width * rgb.height; i++) {
      rgba.data.set(rgb.data.subarray(i * 3, i * 3 + 3), i * 4);
      rgba.data[i * 4 + 3] = i % 251;
    }
    const { image, report } = replaceSky(rgba, catalog.defaultSky);
    assert.equal(report.replaced, true);
    assert.equal(image.channels, 4);
    for (let i = 0; i < rgb.width * rgb.height; i++) assert.equal(image.data[i * 4 + 3], i % 251);
  });
});

describe('renderLinearSky', () => {
  it('brightens monotonically toward the horizon and is blue at the zenith', () => {
    const height = 240;
    const sky = encodedSky(clearBlue, 160, height, { horizonRow: height });
    const rows = rowMeans(sky);
    for (let y = 1; y < height; y++) {
      // Half a level of slack for the rounding to 8 bits.
      assert.ok(rows[y]!.luma >= rows[y - 1]!.luma - 0.5, `row ${y}: ${rows[y]!.luma} after ${rows[y - 1]!.luma}`);
    }
    assert.ok(rows[height - 1]!.luma - rows[0]!.luma > 40, 'a visible gradient');
    const zenith = rows[0]!;
    assert.ok(zenith.b > zenith.r + 80 && zenith.b > zenith.g + 30, `zenith ${zenith.r}, ${zenith.g}, ${zenith.b}`);
  });

  it('puts the horizon colour at the horizon row and below', () => {
    const sky = encodedSky(clearBlue, 100, 200, { horizonRow: 120 });
    const rows = rowMeans(sky);
    const horizon = hexRgb(clearBlue.horizon);
    for (const y of [125, 199]) {
      assert.ok(Math.abs(rows[y]!.r - horizon[0]) < 8 && Math.abs(rows[y]!.b - horizon[2]) < 8, `row ${y}: ${JSON.stringify(rows[y])}`);
    }
  });

  it('is deterministic, renders any size, and its clouds depend on the seed', () => {
    const sky: Sky = catalog.defaultSky;
    assert.deepEqual(encodedSky(sky, 320, 200).data, encodedSky(sky, 320, 200).data);
    assert.notDeepEqual(encodedSky(sky, 320, 200, { seed: 2 }).data, encodedSky(sky, 320, 200).data);
    for (const [width, height] of [[1, 1], [37, 5], [3000, 40]] as const) {
      const { r, g, b } = renderLinearSky(sky, width, height);
      for (const plane of [r, g, b]) {
        assert.equal(plane.length, width * height);
        assert.ok(plane.every((value) => Number.isFinite(value) && value >= 0), `${width}×${height}: a value is not light`);
      }
    }
  });

  it('covers about cloudCover of the sky with clouds', () => {
    const cloudy = catalog.sky('blue_scattered_clouds')!;
    const withClouds = encodedSky(cloudy, 300, 200);
    const clear = encodedSky({ ...cloudy, cloudCover: 0 }, 300, 200);
    let whiter = 0;
    for (let i = 0; i < 300 * 120; i++) if (withClouds.data[i * 3]! > clear.data[i * 3]! + 25) whiter++;
    const share = whiter / (300 * 120);
    assert.ok(share > 0.1 && share < 0.5, `clouds over ${share} of the upper sky`);
  });
});

describe('the guided filter of the sky matte', () => {
  it('concentrates a blurred matte edge on the guide edge', () => {
    const width = 60;
    const height = 20;
    const image: RawImage = { data: new Uint8Array(width * height * 3), width, height, channels: 3 };
    const blurred = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        image.data.fill(x < 30 ? 220 : 60, (y * width + x) * 3, (y * width + x) * 3 + 3);
        blurred[y * width + x] = Math.min(1, Math.max(0, (36 - x) / 12));
      }
    }
    // Fitted and applied at the same size: the matte's fast guided filter reduced to the plain one.
    const model = fitGuidedFilter(downsampleToPlanes(image, width), blurred, { radius: 4, epsilon: 1e-4 });
    const filtered = applyModelToImage(model, image);
    // The input falls by 1/12 per pixel; after filtering, most of the fall happens at the guide's edge (x = 29 → 30).
    const step = filtered[10 * width + 29]! - filtered[10 * width + 30]!;
    assert.ok(step > 0.3, `step at the edge ${step}`);
  });
});

/** The linear sky encoded to 8 bits as replaceSky encodes it, so that assertions can speak in levels. */
function encodedSky(sky: Sky, width: number, height: number, options: RenderSkyOptions = {}): RawImage {
  const linear = renderLinearSky(sky, width, height, options);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    data[i * 3] = linearToSrgbByte(linear.r[i]!);
    data[i * 3 + 1] = linearToSrgbByte(linear.g[i]!);
    data[i * 3 + 2] = linearToSrgbByte(linear.b[i]!);
  }
  return { data, width, height, channels: 3 };
}

function iou(matte: Float32Array, truth: Uint8Array): number {
  let intersection = 0;
  let union = 0;
  for (let i = 0; i < truth.length; i++) {
    const predicted = matte[i]! >= 0.5;
    if (predicted && truth[i]) intersection++;
    if (predicted || truth[i]) union++;
  }
  return intersection / union;
}

function pixel(image: RawImage, x: number, y: number): Rgb {
  const i = (y * image.width + x) * image.channels;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}

function rowMeans(image: RawImage): { r: number; g: number; b: number; luma: number }[] {
  const rows = [];
  for (let y = 0; y < image.height; y++) {
    let r = 0, g = 0, b = 0;
    for (let x = 0; x < image.width; x++) {
      const [red, green, blue] = pixel(image, x, y);
      r += red;
      g += green;
      b += blue;
    }
    r /= image.width;
    g /= image.width;
    b /= image.width;
    rows.push({ r, g, b, luma: 0.299 * r + 0.587 * g + 0.114 * b });
  }
  return rows;
}

function hexRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function rectangle(left: number, top: number, right: number, bottom: number): Point[] {
  return [[left, top], [right, top], [right, bottom], [left, bottom]];
}

function insidePolygon(points: Point[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function distanceToSegment([x0, y0]: Point, [x1, y1]: Point, x: number, y: number): number {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x0 + t * dx), y - (y0 + t * dy));
}

function clampByte(value: number): number {
  return Math.min(255, Math.max(0, Math.round(value)));
}
