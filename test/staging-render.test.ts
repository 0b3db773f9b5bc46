import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { samplePiece } from '../src/furniture/library.js';
import { Random } from '../src/random.js';
import { BlenderRenderer } from '../src/repositories/blender/blender-renderer.js';
import { estimateLight } from '../src/staging/light-estimate.js';
import { placePiece } from '../src/staging/place-piece.js';
import { renderedLayer } from '../src/services/staging/render-pieces.js';
import { renderRegion, renderScene, scaleRenderScene } from '../src/staging/render-setup.js';
import { compositeRenderedLayer } from '../src/vision/differential-composite.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { seededRandom } from './helpers/seeded-random.js';
import { syntheticRoom } from './helpers/synthetic-room.js';

/** Only a hang reaches this: the render below takes seconds. */
const TIMEOUT_MS = 5 * 60_000;
const renderer = new BlenderRenderer();
const availability = await renderer.available();

/** A photo of the synthetic room: walls, floor and a bright window, with sensor noise (so that nothing is flat). */
function photoOf(width: number, height: number): RawImage {
  const room = syntheticRoom(width, height);
  const window = polygonMask(width, height, room.openings.filter((o) => o.kind === 'window').map((o) => o.polygon));
  const horizon = height * 0.42;
  const random = seededRandom(4);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const base = window[p] ? [235, 240, 250] : y > horizon ? [150, 118, 86] : [214, 210, 202];
      for (let c = 0; c < 3; c++) data[p * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c]! + (random() - 0.5) * 6)));
    }
  }
  return { data, width, height, channels: 3 };
}

describe('a piece rendered into a photo', { skip: availability.ok ? false : `Blender is not usable here: ${availability.ok ? '' : availability.reason}`, timeout: TIMEOUT_MS }, () => {
  it('changes only pixels inside the change mask, and those are the piece and its shadow', async () => {
    const width = 64;
    const height = 48;
    const room = syntheticRoom(width, height);
    const photo = photoOf(width, height);
    const piece = samplePiece('sideboard', 'scandinavian', 11);
    const outcome = placePiece(room, { footprint: piece.footprint, preserveWindows: true, random: new Random(11) });
    assert.ok(outcome.placed);
    const light = estimateLight(photo, room);
    const region = renderRegion(room, [outcome.placement]);
    const scene = renderScene({ room, light, pieces: [{ name: piece.id, placement: outcome.placement, geometry: piece.build() }], region, samples: 8, threads: 0, seed: 11 });
    const passes = await renderer.render(scene, { photo });
    assert.equal(passes.width, region.x1 - region.x0);
    assert.equal(passes.height, region.y1 - region.y0);
    const composite = compositeRenderedLayer(
      photo,
      { x0: region.x0, y0: region.y0, width: passes.width, height: passes.height, pieces: passes.pieces, shadow: passes.shadow },
      { grain: 1, seed: 11, unshadowed: polygonMask(width, height, room.openings.map((o) => o.polygon)) },
    );
    let inside = 0;
    let covered = 0;
    for (let p = 0; p < width * height; p++) {
      const same = [0, 1, 2].every((c) => composite.image.data[p * 3 + c] === photo.data[p * 3 + c]);
      if (!composite.changeMask[p]) assert.ok(same, `pixel ${p % width},${Math.floor(p / width)} changed outside the change mask`);
      else inside++;
      const x = p % width;
      const y = Math.floor(p / width);
      if (x >= region.x0 && x < region.x1 && y >= region.y0 && y < region.y1) {
        const l = (y - region.y0) * passes.width + (x - region.x0);
        if (passes.pieces[l * 4 + 3]! > 0.5) covered++;
      }
    }
    assert.ok(covered > 0, 'the piece is in the picture');
    assert.ok(inside >= covered, 'the change mask holds the piece');
    assert.ok(inside < width * height / 2, `the change mask stays local (${inside} pixels)`);
    // The piece stands in the region the placement predicted.
    const box = outcome.placement.imageBox;
    assert.ok(box.x0 >= region.x0 && box.x1 <= region.x1 && box.y0 >= region.y0 && box.y1 <= region.y1);
  });

  it('rendered smaller, denoised and resampled up: the piece where the full-size render has it, nothing else touched', async () => {
    const width = 96;
    const height = 72;
    const room = syntheticRoom(width, height);
    const photo = photoOf(width, height);
    const piece = samplePiece('sideboard', 'scandinavian', 11);
    const outcome = placePiece(room, { footprint: piece.footprint, preserveWindows: true, random: new Random(11) });
    assert.ok(outcome.placed);
    const light = estimateLight(photo, room);
    const region = renderRegion(room, [outcome.placement]);
    const scene = renderScene({ room, light, pieces: [{ name: piece.id, placement: outcome.placement, geometry: piece.build() }], region, samples: 8, threads: 0, seed: 11 });
    const full = await renderer.render(scene, { photo });
    assert.ok(full.guides, 'the render has its feature passes');
    const fullLayer = renderedLayer(full, scaleRenderScene(scene, Infinity).grid, region);
    const scaled = scaleRenderScene(scene, (width * height) / 4);
    assert.ok(Math.abs(scaled.grid.scale - 0.5) < 0.01);
    const small = await renderer.render(scaled.scene, { photo });
    const layer = renderedLayer(small, scaled.grid, region);
    assert.deepEqual([layer.x0, layer.y0, layer.width, layer.height], [region.x0, region.y0, region.x1 - region.x0, region.y1 - region.y0]);
    // The coverage of the half-size render, resampled, agrees with the full-size one but for its softer edge.
    let agree = 0;
    let covered = 0;
    for (let i = 0; i < layer.width * layer.height; i++) {
      const a = fullLayer.pieces[i * 4 + 3]! > 0.5;
      if (a) covered++;
      if (a && layer.pieces[i * 4 + 3]! > 0.5) agree++;
    }
    assert.ok(covered > 20 && agree > 0.8 * covered, `${agree} of ${covered} covered pixels agree`);
    const composite = compositeRenderedLayer(photo, layer, { grain: 1, seed: 11 });
    for (let p = 0; p < width * height; p++) {
      if (composite.changeMask[p]) continue;
      for (let c = 0; c < 3; c++) assert.equal(composite.image.data[p * 3 + c], photo.data[p * 3 + c], `pixel ${p} changed outside the change mask`);
    }
    // The same seed gives the same bytes.
    const again = renderedLayer(await renderer.render(scaled.scene, { photo }), scaled.grid, region);
    assert.deepEqual(again.pieces, layer.pieces);
  });
});
