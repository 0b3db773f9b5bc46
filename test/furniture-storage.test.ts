import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FurnitureGenerator } from '../src/furniture/generator.js';
import { STORAGE_GENERATORS, type CaseParams, type FridgeParams } from '../src/furniture/generators/storage.js';
import { bounds, merge } from '../src/furniture/mesh.js';
import { STYLE_PROFILES, styleProfile } from '../src/furniture/styles.js';
import { Random } from '../src/random.js';
import { closedMeshProblems } from './helpers/mesh-check.js';

/** Real-world ranges of the footprint per id: [min, max] width, depth, height (metres). */
const RANGES: Record<string, { w: [number, number]; d: [number, number]; h: [number, number] }> = {
  tv_stand: { w: [1.3, 2.2], d: [0.36, 0.48], h: [0.38, 0.6] },
  bookcase: { w: [0.7, 1.4], d: [0.26, 0.4], h: [1.7, 2.2] },
  sideboard: { w: [1.3, 2.2], d: [0.4, 0.52], h: [0.68, 0.92] },
  wardrobe: { w: [1.0, 2.0], d: [0.55, 0.66], h: [2.0, 2.3] },
  chest_of_drawers: { w: [0.7, 1.3], d: [0.4, 0.55], h: [0.72, 1.12] },
  shoe_cabinet: { w: [0.6, 1.2], d: [0.22, 0.4], h: [0.85, 1.2] },
  nightstand: { w: [0.38, 0.6], d: [0.32, 0.46], h: [0.5, 0.6] },
  pantry_cabinet: { w: [0.45, 0.9], d: [0.5, 0.65], h: [1.95, 2.25] },
  tall_bathroom_cabinet: { w: [0.3, 0.5], d: [0.22, 0.36], h: [1.5, 1.9] },
  // Vanities: the height includes the basins and taps standing on the counter.
  vanity_unit: { w: [0.6, 1.0], d: [0.42, 0.52], h: [0.88, 1.12] },
  double_vanity: { w: [1.2, 1.7], d: [0.45, 0.55], h: [0.88, 1.12] },
  kitchen_island: { w: [1.4, 2.6], d: [0.85, 1.15], h: [0.88, 0.94] },
  kitchen_cart: { w: [0.5, 0.85], d: [0.35, 0.5], h: [0.82, 0.94] },
  refrigerator: { w: [0.55, 0.75], d: [0.6, 0.74], h: [1.7, 2.0] },
};

const ENTRIES: { generator: FurnitureGenerator; id: string }[] = STORAGE_GENERATORS.flatMap((generator) => generator.ids.map((id) => ({ generator, id })));
const SAMPLE_SEEDS = [1, 2, 3];
// Building and checking every mesh is the slow part: every id in every style, the three seeds taking turns by style.
const buildSeed = (styleIndex: number): number => SAMPLE_SEEDS[styleIndex % SAMPLE_SEEDS.length]!;

function draw(generator: FurnitureGenerator, id: string, styleId: string, seed: number): object {
  return generator.sample(id, styleProfile(styleId), new Random(seed).fork(`${id}/${styleId}`));
}

const within = (value: number, [lo, hi]: [number, number], what: string): void => {
  assert.ok(value >= lo - 0.001 && value <= hi + 0.001, `${what} ${value.toFixed(3)} outside [${lo}, ${hi}]`);
};

function fronts(p: CaseParams, kind: string): number {
  return p.bays.reduce((sum, bay) => sum + bay.cells.filter((c) => c.kind === kind).reduce((s, c) => s + c.leaves, 0), 0);
}

test('storage generators cover the case goods of the catalog, each id once', () => {
  const ids = ENTRIES.map((e) => e.id).sort();
  assert.deepEqual(ids, Object.keys(RANGES).sort());
});

test('every part is a closed mesh and the built piece fills its footprint', () => {
  for (const { generator, id } of ENTRIES) {
    for (const [styleIndex, style] of STYLE_PROFILES.entries()) {
      const seed = buildSeed(styleIndex);
      {
        const label = `${id} ${style.id} seed ${seed}`;
        const params = draw(generator, id, style.id, seed);
        const footprint = generator.footprint(params);
        const geometry = generator.build(params);
        assert.ok(geometry.parts.length >= 3, `${label}: too few parts`);
        for (const part of geometry.parts) {
          assert.deepEqual(closedMeshProblems(part.mesh), [], `${label}: part ${part.name}`);
          const material = geometry.materials[part.material];
          assert.ok(material, `${label}: part ${part.name} has no material`);
          if (material.kind === 'wood') assert.ok(part.grain, `${label}: wood part ${part.name} has no grain`);
        }
        const all = merge(...geometry.parts.map((p) => p.mesh));
        assert.ok(all.vertices.length < 60000, `${label}: ${all.vertices.length} vertices`);
        const b = bounds(all);
        const near = (a: number, e: number, what: string): void => assert.ok(Math.abs(a - e) <= 0.01, `${label}: ${what} ${a.toFixed(4)} vs ${e.toFixed(4)}`);
        near(b.max[0] - b.min[0], footprint.width, 'width');
        near(b.max[1] - b.min[1], footprint.depth, 'depth');
        near(b.max[2] - b.min[2], footprint.height, 'height');
        near((b.max[0] + b.min[0]) / 2, 0, 'x centre');
        near((b.max[1] + b.min[1]) / 2, 0, 'y centre');
        near(b.min[2], footprint.elevation, 'bottom');
      }
    }
  }
});

test('dimensions stay in real-world ranges, with the layout each piece is known by', () => {
  for (const { generator, id } of ENTRIES) {
    const range = RANGES[id]!;
    for (const style of STYLE_PROFILES) {
      for (const seed of SAMPLE_SEEDS) {
        const label = `${id} ${style.id} seed ${seed}`;
        const params = draw(generator, id, style.id, seed);
        const f = generator.footprint(params);
        within(f.width, range.w, `${label}: width`);
        within(f.depth, range.d, `${label}: depth`);
        within(f.height, range.h, `${label}: height`);
        assert.equal(f.elevation, 0, label);
        assert.equal(f.placement, id === 'kitchen_island' || id === 'kitchen_cart' ? 'floor' : 'against-wall', label);
        if (id === 'wardrobe' || id === 'refrigerator') assert.ok(f.frontClearance >= 0.9, label);
        else assert.ok(f.frontClearance >= 0.5 && f.frontClearance <= 1.0, label);
        if (id === 'refrigerator') {
          const p = params as FridgeParams;
          assert.ok(p.freezerHeight > 0.25 && p.freezerHeight < f.height * 0.5, `${label}: freezer ${p.freezerHeight}`);
          continue;
        }
        if (id === 'kitchen_cart') continue;
        const p = params as CaseParams;
        assert.equal(p.styleId, style.id);
        if (id === 'wardrobe') within(fronts(p, 'door'), [2, 3], `${label}: doors`);
        if (id === 'chest_of_drawers') within(fronts(p, 'drawer'), [3, 5], `${label}: drawers`);
        if (id === 'nightstand') within(fronts(p, 'drawer'), [1, 2], `${label}: drawers`);
        if (id === 'bookcase') assert.ok(p.bays.every((b) => b.cells.some((c) => c.kind === 'open' && c.shelves >= 1)), `${label}: open shelves`);
        if (id === 'vanity_unit' || id === 'double_vanity') {
          assert.equal(p.vanity?.basins, id === 'double_vanity' ? 2 : 1, label);
          within(p.height, [0.74, 0.88], `${label}: counter height`);
        }
        if (id === 'kitchen_island') {
          assert.ok(p.top.back >= 0.2, `${label}: seating overhang ${p.top.back}`);
          assert.ok(['stone', 'marble', 'concrete', 'wood'].includes(p.materials.top.kind), `${label}: worktop ${p.materials.top.kind}`);
        }
        assert.ok(style.cases.some((m) => JSON.stringify(m) === JSON.stringify(p.materials.carcass)), `${label}: carcass finish is not one of the style's`);
      }
    }
  }
});

test('the same seed gives the same piece, another seed another', () => {
  for (const { generator, id } of ENTRIES) {
    for (const style of STYLE_PROFILES) {
      const a = draw(generator, id, style.id, 11);
      assert.deepEqual(draw(generator, id, style.id, 11), a, `${id} ${style.id}`);
      assert.notDeepEqual(draw(generator, id, style.id, 12), a, `${id} ${style.id}`);
    }
  }
  const { generator } = ENTRIES.find((e) => e.id === 'bookcase')!;
  const params = draw(generator, 'bookcase', 'scandinavian', 5);
  assert.deepEqual(generator.build(params), generator.build(params));
});

test('the style drives base, handles and materials: minimalist and traditional case goods differ', () => {
  const { generator } = ENTRIES.find((e) => e.id === 'chest_of_drawers')!;
  for (const seed of SAMPLE_SEEDS) {
    const minimalist = draw(generator, 'chest_of_drawers', 'minimalist', seed) as CaseParams;
    const traditional = draw(generator, 'chest_of_drawers', 'traditional', seed) as CaseParams;
    assert.ok(['plinth', 'block'].includes(minimalist.base.kind), minimalist.base.kind);
    assert.ok(['turned', 'cabriole', 'bun'].includes(traditional.base.kind), traditional.base.kind);
    assert.equal(minimalist.handle, 'none');
    assert.ok(traditional.handle === 'knob' || traditional.handle === 'ring');
    assert.notDeepEqual(minimalist.materials.carcass, traditional.materials.carcass);
    assert.equal(minimalist.frontStyle, 'slab');
  }
  // Mid-century sideboards stand on legs, never on a plinth.
  const sideboards = ENTRIES.find((e) => e.id === 'sideboard')!.generator;
  for (const seed of SAMPLE_SEEDS) {
    const p = draw(sideboards, 'sideboard', 'mid_century_modern', seed) as CaseParams;
    assert.ok(p.base.kind === 'tapered' || p.base.kind === 'splayed', p.base.kind);
  }
});

test('size limits are honoured where the piece allows it', () => {
  for (const { generator, id } of ENTRIES) {
    const limits = { maxWidth: RANGES[id]!.w[0], maxDepth: RANGES[id]!.d[0], maxHeight: RANGES[id]!.h[1] };
    for (const seed of SAMPLE_SEEDS) {
      const params = generator.sample(id, styleProfile('modern'), new Random(seed), limits);
      const f = generator.footprint(params);
      assert.ok(f.width <= limits.maxWidth + 0.001, `${id}: width ${f.width}`);
      assert.ok(f.depth <= limits.maxDepth + 0.001, `${id}: depth ${f.depth}`);
    }
  }
});
