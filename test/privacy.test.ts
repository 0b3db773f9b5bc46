import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { createDetectorSession } from '../src/repositories/models/detector-session.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { parseTfjsGraphModel } from '../src/repositories/models/tfjs-graph.js';
import { tfjsGraphModelToOnnx } from '../src/repositories/models/tfjs-graph-to-onnx.js';
import { applyPrivacy } from '../src/services/privacy/apply-privacy.js';
import { detectFaces } from '../src/services/privacy/detect-faces.js';
import { PRIVACY_MODEL_NAMES } from '../src/services/privacy/detect-private-regions.js';
import { BLAZEFACE_VALUES_PER_ANCHOR, blazeFaceAnchors, decodeBlazeFace } from '../src/vision/privacy/blazeface-decoder.js';
import { blurRegions } from '../src/vision/privacy/blur-regions.js';
import { intersectionOverUnion, type Box } from '../src/vision/box.js';
import { brightRectangles } from '../src/vision/privacy/bright-rectangles.js';
import { decodeCenterNet } from '../src/vision/centernet-decoder.js';
import { agreeWithMirror, mirrorRows } from '../src/vision/privacy/mirror-agreement.js';
import { nonMaxSuppression } from '../src/vision/non-max-suppression.js';
import { outlinedRectangles } from '../src/vision/privacy/outlined-rectangles.js';
import { cropSquare, resizeArea } from '../src/vision/privacy/planar-image.js';
import { isPlateShaped, platesFromText } from '../src/vision/privacy/plate-candidates.js';
import { textRegions } from '../src/vision/privacy/text-regions.js';
import { axisStarts, planTiles } from '../src/vision/tiling.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';
import { TEST_TIMEOUT_MS } from './helpers/until.js';

function near(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} is not within ${tolerance} of ${expected}`);
}

function solidImage(width: number, height: number, value: number, channels: RawImage['channels'] = 3): RawImage {
  return { data: new Uint8Array(width * height * channels).fill(value), width, height, channels };
}

describe('BlazeFace decoding', () => {
  it('puts one anchor at the centre of each cell of the 48 × 48 grid, row by row', () => {
    const anchors = blazeFaceAnchors();
    assert.equal(anchors.length, 2304);
    assert.deepEqual(anchors[0], { x: 2, y: 2 });
    assert.deepEqual(anchors[1], { x: 6, y: 2 });
    assert.deepEqual(anchors[48], { x: 2, y: 6 });
    assert.deepEqual(anchors.at(-1), { x: 190, y: 190 });
  });

  it('reads the score as the sigmoid of the clipped logit and the box as offsets from the anchor', () => {
    const anchors = blazeFaceAnchors();
    const output = new Float32Array(anchors.length * BLAZEFACE_VALUES_PER_ANCHOR).fill(-10);
    const at = 48 * 10 + 20; // row 10, column 20: anchor (82, 42)
    output.set([Math.log(4), 3, -2, 30, 40], at * BLAZEFACE_VALUES_PER_ANCHOR);
    output[(at + 1) * BLAZEFACE_VALUES_PER_ANCHOR] = 1000; // clipped to 100: score 1, but a zero-sized box is dropped
    const boxes = decodeBlazeFace(output, anchors, 0.5);
    assert.equal(boxes.length, 1);
    near(boxes[0]!.score, 0.8, 1e-6, 'score');
    assert.deepEqual([boxes[0]!.x, boxes[0]!.y, boxes[0]!.width, boxes[0]!.height], [85 - 15, 40 - 20, 30, 40]);
  });
});

describe('non-maximum suppression', () => {
  const boxes = [
    { x: 0, y: 0, width: 10, height: 10, score: 0.9 },
    { x: 1, y: 1, width: 10, height: 10, score: 0.6 },
    { x: 50, y: 50, width: 10, height: 10, score: 0.7 },
  ];

  it('keeps the best of each overlapping group', () => {
    assert.deepEqual(nonMaxSuppression(boxes, 0.3), [boxes[0], boxes[2]]);
  });

  it('blends a group into its score-weighted mean box, keeping the best score', () => {
    const [blended] = nonMaxSuppression(boxes, 0.3, true);
    near(blended!.x, 0.6 / 1.5, 1e-9, 'x');
    assert.equal(blended!.score, 0.9);
  });
});

describe('mirror agreement', () => {
  it('averages the two views of one face and halves what only one view saw', () => {
    assert.deepEqual(mirrorRows(Float32Array.of(1, 2, 3, 4, 5, 6), 3), Float32Array.of(3, 2, 1, 6, 5, 4));
    const direct = [
      { x: 10, y: 10, width: 20, height: 20, score: 0.8 },
      { x: 100, y: 100, width: 10, height: 10, score: 0.7 },
    ];
    const mirrored = [{ x: 12, y: 10, width: 20, height: 20, score: 0.6 }];
    const agreed = agreeWithMirror(direct, mirrored);
    near(agreed[0]!.score, 0.7, 1e-9, 'paired score');
    near(agreed[0]!.x, (10 * 0.8 + 12 * 0.6) / 1.4, 1e-9, 'paired x');
    near(agreed[1]!.score, 0.35, 1e-9, 'lonely score');
  });
});

describe('tiling', () => {
  it('spreads windows evenly with at least the overlap asked, the last ending at the border', () => {
    assert.deepEqual(axisStarts(100, 192, 0.25), [0]);
    for (const [length, size, overlap] of [[1000, 192, 0.25], [500, 192, 0.5], [193, 192, 0.25]] as const) {
      const starts = axisStarts(length, size, overlap);
      assert.equal(starts[0], 0);
      assert.equal(starts.at(-1), length - size);
      for (let i = 1; i < starts.length; i++) assert.ok(starts[i - 1]! + size - starts[i]! >= overlap * size - 1);
    }
  });

  it('plans levels from the finest tiles to the whole photo in one tile', () => {
    const levels = planTiles(4000, 3000, { inputSize: 192, smallestTile: 288 });
    const sides = [288, 576, 1152, 2304, 4000];
    assert.equal(levels.length, sides.length);
    levels.forEach((level, i) => near(192 / level.scaleX, sides[i]!, 3, `tile side of level ${i}`));
    assert.deepEqual(levels.at(-1)!.tiles, [{ x: 0, y: 0 }]);
    for (const level of levels) {
      const xs = new Set(level.tiles.map((tile) => tile.x));
      assert.equal(Math.max(...xs) + 192 >= level.width, true, 'tiles reach the right border');
      assert.equal(level.tiles.length, xs.size * new Set(level.tiles.map((tile) => tile.y)).size);
    }
    assert.equal(planTiles(150, 100, { inputSize: 192 }).length, 1, 'a photo smaller than the input is one letterboxed tile');
  });
});

describe('planar images', () => {
  it('shrinks by exact area means, keeps a constant image constant, and letterboxes crops with mid grey', () => {
    const image: RawImage = { data: Uint8Array.of(0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255), width: 2, height: 2, channels: 3 };
    const half = resizeArea(image, 1, 1);
    near(half.data[0]!, 0.5, 1e-6, 'mean of two black and two white pixels');
    const flat = resizeArea(solidImage(37, 23, 51), 10, 7);
    for (const value of flat.data) near(value, 0.2, 1e-5, 'constant');
    const grey = resizeArea(solidImage(4, 4, 255, 1), 2, 2);
    assert.ok(grey.data.every((value) => Math.abs(value - 1) < 1e-6), 'grey photos give three equal planes');
    const crop = cropSquare(flat, 8, -2, 4);
    assert.equal(crop.length, 3 * 16);
    near(crop[0]!, 0.5, 0, 'above the image');
    near(crop[2 * 4]!, 0.2, 1e-5, 'inside');
    near(crop[2 * 4 + 3]!, 0.5, 0, 'right of the image');
  });
});

describe('CenterNet decoding', () => {
  it('keeps 3 × 3 local maxima of the wanted classes and spans the predicted edge distances', () => {
    const [rows, columns, classes] = [8, 8, 3];
    const plane = rows * columns;
    const heatmap = new Float32Array(classes * plane);
    const sizes = new Float32Array(4 * plane);
    heatmap[2 * plane + 3 * columns + 5] = 0.9; // class 2 at (5, 3)
    heatmap[2 * plane + 3 * columns + 4] = 0.8; // its neighbour: not a maximum
    heatmap[1 * plane + 6 * columns + 1] = 0.95; // class 1: not wanted
    sizes.set([10], 3 * columns + 5);
    sizes.set([6], plane + 3 * columns + 5);
    sizes.set([4], 2 * plane + 3 * columns + 5);
    sizes.set([2], 3 * plane + 3 * columns + 5);
    const boxes = decodeCenterNet({ heatmap, sizes, classes, rows, columns }, { classIds: new Set([2]), minScore: 0.3 });
    assert.equal(boxes.length, 1);
    assert.deepEqual(boxes[0], { x: 20 - 10, y: 12 - 6, width: 14, height: 8, score: heatmap[2 * plane + 3 * columns + 5], classId: 2 });
  });
});

describe('text regions of a DB probability map', () => {
  it('boxes each connected region above the threshold, grown by the unclip distance, and drops weak ones', () => {
    const [width, height] = [40, 20];
    const map = new Float32Array(width * height);
    for (let y = 5; y < 9; y++) for (let x = 4; x < 24; x++) map[y * width + x] = 0.9;
    for (let y = 14; y < 17; y++) for (let x = 30; x < 36; x++) map[y * width + x] = 0.35;
    const regions = textRegions(map, width, height);
    assert.equal(regions.length, 1);
    const grow = (20 * 4 * 1.5) / (2 * 24);
    assert.deepEqual(regions[0], { x: 4 - grow, y: 5 - grow, width: 20 + 2 * grow, height: 4 + 2 * grow, score: map[5 * width + 4] });
  });
});

describe('plate candidates', () => {
  const vehicle: Box = { x: 100, y: 100, width: 400, height: 300 };

  it('accepts the size, shape and place of a plate on the vehicle and nothing else', () => {
    assert.ok(isPlateShaped({ x: 250, y: 300, width: 100, height: 25 }, vehicle));
    assert.ok(!isPlateShaped({ x: 250, y: 120, width: 100, height: 25 }, vehicle), 'too high: a window or a roof sign');
    assert.ok(!isPlateShaped({ x: 250, y: 300, width: 20, height: 8 }, vehicle), 'too narrow: a badge');
    assert.ok(!isPlateShaped({ x: 250, y: 300, width: 60, height: 60 }, vehicle), 'square');
    assert.ok(!isPlateShaped({ x: 520, y: 300, width: 100, height: 25 }, vehicle), 'beside the vehicle');
  });

  it('keeps contrasting text lines of a plate shape and grows them to the plate', () => {
    const image = solidImage(600, 500, 200);
    for (let y = 305; y < 320; y++) for (let x = 255; x < 345; x += 4) image.data.fill(20, (y * 600 + x) * 3, (y * 600 + x + 2) * 3);
    const line = { x: 250, y: 300, width: 100, height: 25, score: 0.9 };
    const blankLine = { x: 250, y: 350, width: 100, height: 25, score: 0.9 };
    const plates = platesFromText(image, vehicle, [line, blankLine]);
    assert.equal(plates.length, 1, 'the line without contrasting characters is not a plate');
    const plate = plates[0]!;
    [plate.x, plate.y, plate.width, plate.height].forEach((value, i) => near(value, [242, 293.75, 116, 37.5][i]!, 1e-9, 'plate'));
  });

  /** A light plate with dark character strokes over [x0, x1) × [y0, y1) on a darker vehicle. */
  function plateImage(width: number, x0: number, x1: number, y0: number, y1: number): RawImage {
    const image = solidImage(width, 500, 60);
    for (let y = y0; y < y1; y++) {
      image.data.fill(210, (y * width + x0) * 3, (y * width + x1) * 3);
      if (y >= y0 + 4 && y < y1 - 4) for (let x = x0 + 3; x < x1 - 3; x += 5) image.data.fill(20, (y * width + x) * 3, (y * width + x + 2) * 3);
    }
    return image;
  }

  it('joins character pieces on one row into a plate, but not ragged or distant pieces', () => {
    const image = plateImage(600, 250, 350, 300, 330);
    const pieces = [0, 1, 2, 3].map((i) => ({ x: 252 + i * 25, y: 302, width: 20, height: 26, score: 0.9 }));
    const plates = platesFromText(image, vehicle, [], {}, pieces);
    assert.ok(plates.some((plate) => intersectionOverUnion(plate, { x: 250, y: 300, width: 100, height: 30 }) > 0.6), 'the joined row');
    assert.equal(platesFromText(image, vehicle, [], {}, [pieces[0]!]).length, 0, 'one character alone is no plate');
    const spread = pieces.map((piece, i) => ({ ...piece, x: 150 + i * 60 }));
    assert.equal(platesFromText(image, vehicle, [], {}, spread).length, 0, 'characters too far apart');
    const long = [{ x: 252, y: 302, width: 45, height: 26, score: 0.9 }, { x: 300, y: 302, width: 45, height: 26, score: 0.9 }];
    assert.equal(platesFromText(image, vehicle, [], {}, long).length, 0, 'long pieces (reflections) are not joined');
    assert.equal(platesFromText(image, vehicle, [], { mergeGap: 0 }, pieces).length, 0, 'joining off');
  });

  it('accepts a short line cut by the photo edge as a plate grown to that edge, only on a vehicle the edge cuts', () => {
    const image = plateImage(500, 440, 500, 300, 340);
    const cutVehicle: Box = { x: 100, y: 100, width: 395, height: 300 };
    const line = { x: 455, y: 304, width: 40, height: 32, score: 0.9 };
    const plates = platesFromText(image, cutVehicle, [line]);
    assert.equal(plates.length, 1);
    near(plates[0]!.x + plates[0]!.width, 500, 1e-9, 'grown to the edge');
    assert.equal(platesFromText(image, cutVehicle, [line], { borderReach: 0 }).length, 0, 'too short away from the edge');
    const inside = { x: 200, y: 304, width: 40, height: 32, score: 0.9 };
    assert.equal(platesFromText(plateImage(500, 195, 255, 300, 340), cutVehicle, [inside]).length, 0, 'the same line inside the photo is too short');
  });

  it('finds a bright plate-shaped rectangle on a darker vehicle', () => {
    const image = solidImage(600, 500, 70);
    for (let y = 320; y < 344; y++) image.data.fill(230, (y * 600 + 260) * 3, (y * 600 + 350) * 3);
    const found = brightRectangles(image, vehicle);
    assert.equal(found.length, 1);
    assert.ok(intersectionOverUnion(found[0]!, { x: 260, y: 320, width: 90, height: 24 }) > 0.8);
    assert.equal(brightRectangles(solidImage(600, 500, 70), vehicle).length, 0);
  });

  describe('blank plates as outlined rectangles', () => {
    const car: Box = { x: 100, y: 100, width: 600, height: 300 };

    /** A silver car (shaded from 175 at the top to 145 at the bottom) on a grey road, with a dark grille slot. */
    function carImage(): RawImage {
      const image = solidImage(800, 500, 90);
      for (let y = 100; y < 400; y++) image.data.fill(Math.round(175 - (30 * (y - 100)) / 300), (y * 800 + 100) * 3, (y * 800 + 700) * 3);
      fill(image, { x: 200, y: 250, width: 300, height: 20 }, 40);
      return image;
    }
    function fill(image: RawImage, box: Box, value: number): void {
      for (let y = box.y; y < box.y + box.height; y++) image.data.fill(value, (y * image.width + box.x) * 3, (y * image.width + box.x + box.width) * 3);
    }
    /** A blank plate no brighter than the bumper above it: a 3 px dark frame around an even inside. */
    function blankPlate(image: RawImage, box: Box, inside = 160): void {
      fill(image, { x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6 }, 70);
      fill(image, box, inside);
    }
    const plate: Box = { x: 520, y: 300, width: 60, height: 40 };

    it('finds a blank plate seen at an angle, bumper-coloured, on the lower part of the vehicle', () => {
      const image = carImage();
      blankPlate(image, plate);
      const found = outlinedRectangles(image, car);
      assert.equal(found.length, 1);
      assert.ok(intersectionOverUnion(found[0]!, plate) > 0.6, JSON.stringify(found[0]));
      assert.equal(outlinedRectangles(carImage(), car).length, 0, 'a car without a plate');
    });

    it('does not take characters, a row of panels, thin trim or a window for a blank plate', () => {
      const lettered = carImage();
      blankPlate(lettered, plate);
      for (let x = plate.x + 6; x < plate.x + plate.width - 6; x += 8) fill(lettered, { x, y: plate.y + 8, width: 3, height: 24 }, 20);
      assert.equal(outlinedRectangles(lettered, car).length, 0, 'characters: text detection’s plate');
      const row = carImage();
      blankPlate(row, plate);
      blankPlate(row, { ...plate, x: 420 });
      assert.equal(outlinedRectangles(row, car).length, 0, 'two alike: a pattern, not one plate');
      const trim = carImage();
      blankPlate(trim, { x: 300, y: 330, width: 150, height: 8 });
      assert.equal(outlinedRectangles(trim, car).length, 0, 'a chrome strip is too thin for a plate');
      const window = carImage();
      blankPlate(window, { x: 300, y: 130, width: 90, height: 40 });
      assert.equal(outlinedRectangles(window, car).length, 0, 'too high on the vehicle');
    });
  });
});

describe('blurRegions', () => {
  /** Fine detail everywhere: a checkerboard of 2-pixel squares over seeded noise, in RGBA. */
  function detailedImage(width: number, height: number): RawImage {
    const random = seededRandom(11);
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const checker = ((x >> 1) + (y >> 1)) % 2 ? 200 : 50;
        for (let c = 0; c < 3; c++) data[(y * width + x) * 4 + c] = Math.round(checker + 40 * (random() - 0.5));
        data[(y * width + x) * 4 + 3] = 128 + (x % 100);
      }
    }
    return { data, width, height, channels: 4 };
  }

  function laplacianVariance(image: RawImage, box: Box): number {
    const values: number[] = [];
    for (let y = box.y + 1; y < box.y + box.height - 1; y++) {
      for (let x = box.x + 1; x < box.x + box.width - 1; x++) {
        const at = (dx: number, dy: number): number => image.data[((y + dy) * image.width + x + dx) * image.channels]!;
        values.push(4 * at(0, 0) - at(-1, 0) - at(1, 0) - at(0, -1) - at(0, 1));
      }
    }
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
  }

  const box = { x: 60, y: 40, width: 40, height: 48 };
  const options = { margin: 0.15, feather: 0.15 };
  const reach = 2 * 0.15 * 48; // margin + feather, in pixels of the longer side

  it('removes the fine detail inside the box', () => {
    const image = detailedImage(200, 150);
    const blurred = blurRegions(image, [box], options);
    const before = laplacianVariance(image, box);
    const after = laplacianVariance(blurred, box);
    assert.ok(after < before * 0.001, `Laplacian variance ${after.toFixed(2)} is not below 0.1 % of ${before.toFixed(0)}`);
  });

  it('leaves everything beyond box, margin and feather, and all of alpha, bit-identical', () => {
    const image = detailedImage(200, 150);
    const blurred = blurRegions(image, [box], options);
    let changedInside = 0;
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const outside = x < box.x - reach - 1 || x >= box.x + box.width + reach + 1 || y < box.y - reach - 1 || y >= box.y + box.height + reach + 1;
        for (let c = 0; c < 4; c++) {
          const i = (y * image.width + x) * 4 + c;
          if (outside || c === 3) assert.equal(blurred.data[i], image.data[i], `pixel (${x}, ${y}) channel ${c}`);
          else if (blurred.data[i] !== image.data[i]) changedInside++;
        }
      }
    }
    assert.ok(changedInside > box.width * box.height * 3 * 0.9);
    assert.notEqual(blurred.data, image.data, 'the input is not modified');
  });

  it('handles grey photos and boxes that run off the photo', () => {
    const image = solidImage(50, 40, 0, 1);
    image.data.forEach((_, i) => (image.data[i] = i % 2 ? 255 : 0));
    const blurred = blurRegions(image, [{ x: -10, y: 30, width: 30, height: 30 }]);
    const row = 38 * 50;
    for (let x = 0; x < 10; x++) near(blurred.data[row + x]!, 127.5, 3, `grey pixel ${x}`);
  });
});

describe('tfjs graph → ONNX', () => {
  it('computes what TensorFlow computes for the ops of BlazeFace and CenterNet', async () => {
    const model = tinyGraphModel();
    const onnx = tfjsGraphModelToOnnx(parseTfjsGraphModel(model.json, [model.shard]), {
      inputRange: [-1, 1],
      outputs: { flat: 'flat', map: 'resized_sum' },
    });
    const session = await createDetectorSession(onnx);
    try {
      const random = seededRandom(5);
      const input01 = Float32Array.from({ length: 9 * 10 * 3 }, () => random());
      const nchw = new Float32Array(input01.length);
      for (let y = 0; y < 9; y++) for (let x = 0; x < 10; x++) for (let c = 0; c < 3; c++) nchw[c * 90 + y * 10 + x] = input01[(y * 10 + x) * 3 + c]!;
      const outputs = await session.run(nchw, [1, 3, 9, 10]);
      const expected = model.reference({ shape: [1, 9, 10, 3], data: Float64Array.from(input01, (v) => v * 2 - 1) });
      assert.deepEqual(outputs.flat!.dims, [1, 144, 4]);
      expected.flat.data.forEach((value, i) => near(outputs.flat!.data[i]!, value, 1e-4, `flat[${i}]`));
      const [, h, w, c] = expected.map.shape as [number, number, number, number];
      assert.deepEqual(outputs.map!.dims, [1, c, h, w], 'rank-4 outputs are NCHW');
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) {
        near(outputs.map!.data[k * h * w + y * w + x]!, expected.map.data[(y * w + x) * c + k]!, 1e-4, `map(${x}, ${y}, ${k})`);
      }
    } finally {
      await session.close();
    }
  });
});

const FACE_MODELS_MESSAGE = 'the privacy models are not installed (run `roomcraft models install`)';
const registry = ModelRegistry.load();
const store = new ModelStore(path.resolve(import.meta.dirname, '../data/models'), registry);
const installed = await Promise.all(Object.values(PRIVACY_MODEL_NAMES).map((name) => store.filesOf(name).then(() => true, () => false)));

describe('the real models', { skip: installed.every(Boolean) ? false : FACE_MODELS_MESSAGE }, () => {
  it('BlazeFace finds a drawn face, and applyPrivacy blurs it and nothing else', { timeout: TEST_TIMEOUT_MS }, async () => {
    const runtime = new ModelRuntime(store, registry);
    try {
      const models = {
        faces: await runtime.detectorSession(PRIVACY_MODEL_NAMES.faces),
        vehicles: await runtime.detectorSession(PRIVACY_MODEL_NAMES.vehicles),
        text: await runtime.detectorSession(PRIVACY_MODEL_NAMES.text),
      };
      const image = await drawnFace();
      const faces = await detectFaces(image, models.faces);
      assert.equal(faces.length, 1);
      assert.ok(intersectionOverUnion(faces[0]!, { x: 225, y: 150, width: 190, height: 220 }) > 0.5, JSON.stringify(faces[0]));
      const grey = await detectFaces(solidImage(640, 480, 128), models.faces);
      assert.deepEqual(grey, []);
      const { image: blurred, report } = await applyPrivacy(image, models);
      assert.equal(report.faces, 1);
      assert.equal(report.plates, 0);
      assert.deepEqual([blurred.data[0], blurred.data[1], blurred.data[2]], [image.data[0], image.data[1], image.data[2]]);
    } finally {
      await runtime.close();
    }
  });
});

/** A face drawn with SVG shapes (skin, hair, eyes with pupils, brows, nose, lips), softened as a photo would be. */
async function drawnFace(): Promise<RawImage> {
  const svg = `<svg width="640" height="480" xmlns="http://www.w3.org/2000/svg">
    <defs><radialGradient id="skin" cx="50%" cy="45%" r="60%"><stop offset="0%" stop-color="#f1c8a8"/><stop offset="100%" stop-color="#c58c6a"/></radialGradient></defs>
    <rect width="640" height="480" fill="#7a8a9a"/>
    <ellipse cx="320" cy="250" rx="95" ry="125" fill="url(#skin)"/>
    <path d="M225 210 Q320 60 415 210 Q400 120 320 115 Q240 120 225 210Z" fill="#3a2a20"/>
    <ellipse cx="283" cy="235" rx="17" ry="9" fill="#fff"/><circle cx="283" cy="235" r="7" fill="#3b2a1a"/>
    <ellipse cx="357" cy="235" rx="17" ry="9" fill="#fff"/><circle cx="357" cy="235" r="7" fill="#3b2a1a"/>
    <path d="M262 215 Q283 205 304 215" stroke="#3a2a20" stroke-width="5" fill="none"/>
    <path d="M336 215 Q357 205 378 215" stroke="#3a2a20" stroke-width="5" fill="none"/>
    <path d="M320 240 L308 290 Q320 298 332 290Z" fill="#b57f60"/>
    <path d="M288 320 Q320 340 352 320 Q320 330 288 320Z" fill="#a04040" stroke="#803030" stroke-width="4"/>
  </svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).blur(1.2).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

// ---- A tiny tfjs graph model with a plain NHWC reference of every op, for the converter test. ----

interface Nhwc {
  shape: number[];
  data: Float64Array;
}

function at4(t: Nhwc, y: number, x: number, c: number): number {
  return t.data[(y * t.shape[2]! + x) * t.shape[3]! + c]!;
}

function make(shape: number[], value: (y: number, x: number, c: number) => number): Nhwc {
  const [, h, w, c] = shape as [number, number, number, number];
  const data = new Float64Array(h * w * c);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) data[(y * w + x) * c + k] = value(y, x, k);
  return { shape, data };
}

/** TensorFlow's "SAME" padding before the first element, and the output size. */
function same(size: number, kernel: number, stride: number): [number, number] {
  const out = Math.ceil(size / stride);
  return [Math.floor(Math.max((out - 1) * stride + kernel - size, 0) / 2), out];
}

function conv(x: Nhwc, filter: Float32Array, [kh, kw, cin, cout]: number[], stride: number, bias: Float32Array, depthwise: boolean): Nhwc {
  const [, h, w] = x.shape as [number, number, number, number];
  const [top, outH] = same(h, kh!, stride);
  const [left, outW] = same(w, kw!, stride);
  const outC = depthwise ? cin! * cout! : cout!;
  return make([1, outH, outW, outC], (oy, ox, o) => {
    let sum = bias[o]!;
    for (let ky = 0; ky < kh!; ky++) {
      for (let kx = 0; kx < kw!; kx++) {
        const y = oy * stride + ky - top;
        const xx = ox * stride + kx - left;
        if (y < 0 || xx < 0 || y >= h || xx >= w) continue;
        if (depthwise) {
          const i = Math.floor(o / cout!);
          sum += at4(x, y, xx, i) * filter[((ky * kw! + kx) * cin! + i) * cout! + (o % cout!)]!;
        } else {
          for (let i = 0; i < cin!; i++) sum += at4(x, y, xx, i) * filter[((ky * kw! + kx) * cin! + i) * cout! + o]!;
        }
      }
    }
    return sum;
  });
}

function bilinear(x: Nhwc, outH: number, outW: number, halfPixel: boolean): Nhwc {
  const [, h, w] = x.shape as [number, number, number, number];
  const source = (out: number, scale: number, size: number): [number, number, number] => {
    const position = Math.max(0, halfPixel ? (out + 0.5) * scale - 0.5 : out * scale);
    const low = Math.min(Math.floor(position), size - 1);
    return [low, Math.min(low + 1, size - 1), position - low];
  };
  return make([1, outH, outW, x.shape[3]!], (oy, ox, c) => {
    const [y0, y1, fy] = source(oy, h / outH, h);
    const [x0, x1, fx] = source(ox, w / outW, w);
    const top = at4(x, y0, x0, c) * (1 - fx) + at4(x, y0, x1, c) * fx;
    const bottom = at4(x, y1, x0, c) * (1 - fx) + at4(x, y1, x1, c) * fx;
    return top * (1 - fy) + bottom * fy;
  });
}

function tinyGraphModel(): { json: unknown; shard: Uint8Array; reference: (input: Nhwc) => { flat: Nhwc; map: Nhwc } } {
  const random = seededRandom(3);
  const floats = (n: number): Float32Array => Float32Array.from({ length: n }, () => random() - 0.5);
  const constants: { name: string; shape: number[]; values: Float32Array | Int32Array }[] = [];
  const nodes: { name: string; op: string; input?: string[]; attr?: Record<string, unknown> }[] = [
    { name: 'input', op: 'Placeholder', attr: { shape: { shape: { dim: [{ size: '-1' }, { size: '9' }, { size: '10' }, { size: '3' }] } } } },
  ];
  const constant = (name: string, shape: number[], values: Float32Array | Int32Array): string => {
    constants.push({ name, shape, values });
    nodes.push({ name, op: 'Const' });
    return name;
  };
  const ints = (values: number[]): { list: { i: string[] } } => ({ list: { i: values.map(String) } });
  const text = (value: string): { s: string } => ({ s: Buffer.from(value).toString('base64') });
  const fused = (...ops: string[]): { list: { s: string[] } } => ({ list: { s: ops.map((op) => Buffer.from(op).toString('base64')) } });
  const node = (name: string, op: string, input: string[], attr: Record<string, unknown> = {}): string => {
    nodes.push({ name, op, input, attr });
    return name;
  };

  const paddings = [0, 0, 1, 1, 2, 0, 0, 0];
  const w1 = floats(3 * 3 * 3 * 8);
  const b1 = floats(8);
  const d1 = floats(3 * 3 * 8);
  const db1 = floats(8);
  const scale = floats(8);
  node('pad', 'Pad', ['input', constant('pad/paddings', [4, 2], Int32Array.from(paddings))]);
  node('conv', '_FusedConv2D', ['pad', constant('conv/w', [3, 3, 3, 8], w1), constant('conv/b', [8], b1)], {
    strides: ints([1, 2, 2, 1]), padding: text('SAME'), fused_ops: fused('BiasAdd', 'Relu6'), data_format: text('NHWC'),
  });
  node('depthwise', 'FusedDepthwiseConv2dNative', ['conv', constant('dw/w', [3, 3, 8, 1], d1), constant('dw/b', [8], db1)], {
    strides: ints([1, 1, 1, 1]), padding: text('SAME'), fused_ops: fused('BiasAdd', 'Relu'),
  });
  node('scaled', 'Mul', [constant('scale', [8], scale), 'depthwise']);
  node('sum', 'AddV2', ['scaled', 'conv']);
  node('pool', 'MaxPool', ['sum'], { ksize: ints([1, 3, 3, 1]), strides: ints([1, 2, 2, 1]), padding: text('SAME') });
  node('mean', 'Mean', ['pool', constant('mean/axes', [2], Int32Array.of(1, 2))], { keep_dims: { b: true } });
  node('excite', 'Mul', ['pool', 'mean']);
  const size = constant('resize/size', [2], Int32Array.of(6, 6));
  node('resized_half', 'ResizeBilinear', ['excite', size], { half_pixel_centers: { b: true } });
  node('resized_plain', 'ResizeBilinear', ['pool', size], { half_pixel_centers: { b: false } });
  node('resized_sum', 'AddV2', ['resized_half', 'resized_plain']);
  node('concat', 'ConcatV2', ['resized_sum', 'sum', constant('concat/axis', [], Int32Array.of(-1))]);
  node('d2s', 'DepthToSpace', ['concat'], { block_size: { i: '2' } });
  node('sigmoid', 'Sigmoid', ['d2s']);
  node('shape', 'Shape', ['sigmoid']);
  const one = Int32Array.of(1);
  node('batch', 'StridedSlice', ['shape', constant('s/begin', [1], Int32Array.of(0)), constant('s/end', [1], one), constant('s/strides', [1], one)], {
    shrink_axis_mask: { i: '1' },
  });
  node('target', 'Pack', ['batch', constant('t/1', [], Int32Array.of(144)), constant('t/2', [], Int32Array.of(4))], { axis: { i: '0' } });
  node('flat', 'Reshape', ['sigmoid', 'target']);
  node('unused', 'TopKV2', ['flat', constant('k', [], Int32Array.of(5))]); // past the outputs: never converted

  const bytes = constants.map((c) => new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength));
  const shard = new Uint8Array(bytes.reduce((sum, b) => sum + b.length, 0));
  bytes.reduce((offset, b) => (shard.set(b, offset), offset + b.length), 0);
  const json = {
    format: 'graph-model',
    modelTopology: { node: nodes },
    weightsManifest: [{ paths: ['w.bin'], weights: constants.map((c) => ({ name: c.name, shape: c.shape, dtype: c.values instanceof Int32Array ? 'int32' : 'float32' })) }],
  };

  const reference = (input: Nhwc): { flat: Nhwc; map: Nhwc } => {
    const padded = make([1, 11, 12, 3], (y, x, c) => (y >= 1 && y < 10 && x >= 2 ? at4(input, y - 1, x - 2, c) : 0));
    const convolved = conv(padded, w1, [3, 3, 3, 8], 2, b1, false);
    convolved.data = convolved.data.map((v) => Math.min(Math.max(v, 0), 6));
    const depthwise = conv(convolved, d1, [3, 3, 8, 1], 1, db1, true);
    const sum = make(convolved.shape, (y, x, c) => scale[c]! * Math.max(at4(depthwise, y, x, c), 0) + at4(convolved, y, x, c));
    const [top, poolH] = same(6, 3, 2);
    const pool = make([1, poolH, poolH, 8], (oy, ox, c) => {
      let best = -Infinity;
      for (let ky = 0; ky < 3; ky++) for (let kx = 0; kx < 3; kx++) {
        const y = oy * 2 + ky - top;
        const x = ox * 2 + kx - top;
        if (y >= 0 && x >= 0 && y < 6 && x < 6) best = Math.max(best, at4(sum, y, x, c));
      }
      return best;
    });
    const means = Array.from({ length: 8 }, (_, c) => pool.data.filter((_, i) => i % 8 === c).reduce((a, b) => a + b, 0) / (poolH * poolH));
    const excited = make(pool.shape, (y, x, c) => at4(pool, y, x, c) * means[c]!);
    const half = bilinear(excited, 6, 6, true);
    const plain = bilinear(pool, 6, 6, false);
    const map = make(half.shape, (y, x, c) => at4(half, y, x, c) + at4(plain, y, x, c));
    const concat = make([1, 6, 6, 16], (y, x, c) => (c < 8 ? at4(map, y, x, c) : at4(sum, y, x, c - 8)));
    const spread = make([1, 12, 12, 4], (y, x, c) => 1 / (1 + Math.exp(-at4(concat, y >> 1, x >> 1, ((y % 2) * 2 + (x % 2)) * 4 + c))));
    return { flat: { shape: [1, 144, 4], data: spread.data }, map };
  };
  return { json, shard, reference };
}

