import { test } from 'node:test';
import assert from 'node:assert/strict';
import furnitures from '../src/catalog/furnitures.json' with { type: 'json' };
import type { Footprint, FurnitureGenerator, PieceGeometry } from '../src/furniture/generator.js';
import { DECOR_GENERATORS } from '../src/furniture/generators/decor.js';
import { FIXTURE_GENERATORS } from '../src/furniture/generators/fixtures.js';
import { wallArtGenerator } from '../src/furniture/generators/wall-art.js';
import { bounds, type Mesh } from '../src/furniture/mesh.js';
import { STYLE_PROFILES, styleProfile } from '../src/furniture/styles.js';
import { Random } from '../src/random.js';
import { closedMeshProblems } from './helpers/mesh-check.js';

const GENERATORS: readonly FurnitureGenerator[] = [...DECOR_GENERATORS, wallArtGenerator as FurnitureGenerator, ...FIXTURE_GENERATORS];
const SEEDS = [11, 2024, 90210];

const EXPECTED_IDS = [
  'floor_lamp',
  'floor_mirror',
  'rug',
  'bath_mat',
  'houseplant',
  'planter',
  'parasol',
  'laundry_basket',
  'towel_radiator',
  'bathroom_mirror',
  'wall_art',
  'bathtub',
  'freestanding_bathtub',
  'shower_enclosure',
  'toilet',
  'hanging_chair',
  'barbecue',
];

type Range = readonly [number, number];

/** Real-world footprints: width, depth, height (metres), where the piece goes and how high it hangs. */
const RANGES: Record<string, { w: Range; d: Range; h: Range; placement: Footprint['placement'] | Footprint['placement'][]; elevation?: Range }> = {
  floor_lamp: { w: [0.3, 1.75], d: [0.3, 0.6], h: [1.45, 2.1], placement: 'floor' },
  // Leaning mirrors rest against a wall, cheval mirrors stand free.
  floor_mirror: { w: [0.45, 0.9], d: [0.1, 0.55], h: [1.4, 1.95], placement: ['against-wall', 'floor'] },
  rug: { w: [1.55, 2.5], d: [1.55, 3.5], h: [0.008, 0.015], placement: 'floor' },
  bath_mat: { w: [0.6, 0.9], d: [0.4, 0.6], h: [0.01, 0.036], placement: 'floor' },
  houseplant: { w: [0.5, 1.06], d: [0.5, 1.06], h: [0.8, 1.76], placement: 'floor' },
  planter: { w: [0.6, 1.2], d: [0.3, 0.45], h: [0.45, 0.96], placement: 'floor' },
  parasol: { w: [2.0, 3.0], d: [2.0, 3.0], h: [2.3, 2.6], placement: 'floor' },
  laundry_basket: { w: [0.38, 0.52], d: [0.3, 0.52], h: [0.5, 0.65], placement: 'floor' },
  towel_radiator: { w: [0.45, 0.6], d: [0.08, 0.16], h: [0.8, 1.45], placement: 'on-wall', elevation: [0.12, 0.18] },
  bathroom_mirror: { w: [0.45, 1.0], d: [0.015, 0.045], h: [0.5, 1.0], placement: 'on-wall', elevation: [1.0, 1.2] },
  // Hung with its centre near eye height (1.45–1.55 m).
  wall_art: { w: [0.4, 1.3], d: [0.025, 0.04], h: [0.35, 1.1], placement: 'on-wall', elevation: [0.9, 1.3] },
  bathtub: { w: [1.5, 1.8], d: [0.7, 0.8], h: [0.65, 0.85], placement: 'against-wall' },
  freestanding_bathtub: { w: [1.5, 1.8], d: [0.72, 0.85], h: [0.55, 0.8], placement: 'floor' },
  shower_enclosure: { w: [0.8, 1.4], d: [0.8, 1.0], h: [1.95, 2.05], placement: 'against-wall' },
  toilet: { w: [0.35, 0.48], d: [0.64, 0.72], h: [0.75, 0.87], placement: 'against-wall' },
  hanging_chair: { w: [0.84, 1.0], d: [0.84, 1.05], h: [1.9, 2.0], placement: 'floor' },
  barbecue: { w: [0.5, 1.4], d: [0.5, 0.65], h: [0.95, 1.2], placement: 'floor' },
};

function generatorFor(id: string): FurnitureGenerator {
  const found = GENERATORS.find((g) => g.ids.includes(id));
  assert.ok(found, `no generator for ${id}`);
  return found;
}

/** Reads a field of a params object (they are plain JSON). */
function field<T>(params: object, key: string): T {
  return (params as Record<string, unknown>)[key] as T;
}

function within(value: number, [min, max]: Range, label: string): void {
  assert.ok(value >= min - 1e-9 && value <= max + 1e-9, `${label}: ${value.toFixed(4)} not in [${min}, ${max}]`);
}

function pieceBounds(geometry: PieceGeometry): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const p of geometry.parts) {
    const b = bounds(p.mesh);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, b.min[k]!);
      max[k] = Math.max(max[k]!, b.max[k]!);
    }
  }
  return { min, max };
}

function partNamed(geometry: PieceGeometry, name: string): { mesh: Mesh; kind: string } {
  const p = geometry.parts.find((q) => q.name === name);
  assert.ok(p, `no part ${name} in ${geometry.parts.map((q) => q.name).join(', ')}`);
  return { mesh: p.mesh, kind: geometry.materials[p.material]!.kind };
}

function materialSignature(geometry: PieceGeometry): string {
  return Object.values(geometry.materials)
    .map((m) => `${m.kind}:${m.color}`)
    .sort()
    .join('|');
}

/** Checks that apply to one id beyond its footprint range. */
function checkSpecifics(id: string, params: object, geometry: PieceGeometry, fp: Footprint, label: string): void {
  switch (id) {
    case 'floor_lamp':
      assert.equal(partNamed(geometry, 'shade').kind, 'fabric', label);
      break;
    case 'floor_mirror':
    case 'bathroom_mirror':
      assert.equal(partNamed(geometry, 'glass').kind, 'mirror', label);
      break;
    case 'wall_art': {
      assert.equal(partNamed(geometry, 'canvas').kind, 'fabric', label);
      // At least one painted shape, on the canvas and inside its frame.
      const paint = partNamed(geometry, 'paint-0');
      const canvas = bounds(partNamed(geometry, 'canvas').mesh);
      const b = bounds(paint.mesh);
      assert.ok(b.min[0] >= canvas.min[0] - 1e-9 && b.max[0] <= canvas.max[0] + 1e-9 && b.min[2] >= canvas.min[2] - 1e-9 && b.max[2] <= canvas.max[2] + 1e-9, `${label}: paint off the canvas`);
      assert.ok(b.max[1] <= canvas.min[1] + 1e-9, `${label}: paint behind the canvas's face`);
      break;
    }
    case 'rug':
      assert.ok(['160x230', '200x300', '240x340', 'round'].includes(field<string>(params, 'size')), label);
      assert.equal(partNamed(geometry, 'rug').kind, 'rug', label);
      within(field<number>(params, 'thickness'), [0.008, 0.015], `${label} thickness`);
      break;
    case 'houseplant': {
      const leafColors = new Set(Object.values(geometry.materials).filter((m) => m.kind === 'leaf').map((m) => m.color));
      assert.ok(leafColors.size >= 2, `${label}: leaf clusters should differ in green`);
      assert.ok(['ceramic', 'rattan'].includes(partNamed(geometry, 'pot').kind), label);
      assert.equal(partNamed(geometry, 'soil').kind, 'soil', label);
      break;
    }
    case 'parasol':
      assert.equal(partNamed(geometry, 'canopy').kind, 'fabric', label);
      break;
    case 'laundry_basket': {
      const body = geometry.parts.find((p) => p.name === 'body' || p.name === 'bag');
      assert.ok(body && ['rattan', 'fabric'].includes(geometry.materials[body.material]!.kind), label);
      break;
    }
    case 'towel_radiator':
      assert.ok(geometry.parts.every((p) => geometry.materials[p.material]!.kind === 'metal'), label);
      break;
    case 'shower_enclosure':
      assert.equal(partNamed(geometry, 'glass').kind, 'glass', label);
      assert.equal(partNamed(geometry, 'frame').kind, 'metal', label);
      break;
    case 'bathtub': {
      // The basin is a real hollow: the tub's surface dips well below its deck in the middle of the footprint.
      const tub = partNamed(geometry, 'tub');
      const deck = field<number>(params, 'height');
      within(deck, [0.52, 0.6], `${label} deck height`);
      const central = tub.mesh.vertices.filter((v) => Math.abs(v[0]) < fp.width / 4 && Math.abs(v[1]) < fp.depth / 4);
      assert.ok(central.length > 0 && Math.min(...central.map((v) => v[2])) < deck - 0.33, `${label}: no recessed basin`);
      assert.equal(tub.kind, 'ceramic', label);
      break;
    }
    case 'freestanding_bathtub': {
      const tub = partNamed(geometry, 'tub');
      const central = tub.mesh.vertices.filter((v) => Math.abs(v[0]) < fp.width / 5 && Math.abs(v[1]) < fp.depth / 5);
      assert.ok(Math.min(...central.map((v) => v[2])) < field<number>(params, 'height') - 0.4, `${label}: no recessed basin`);
      break;
    }
    case 'toilet':
      within(field<number>(params, 'seatHeight'), [0.4, 0.43], `${label} seat height`);
      partNamed(geometry, 'cistern');
      partNamed(geometry, 'lid');
      break;
    case 'hanging_chair': {
      const seat = partNamed(geometry, 'seat-cushion');
      const centre = seat.mesh.vertices.filter((v) => Math.abs(v[0]) < 0.005);
      within(Math.max(...centre.map((v) => v[2])), [0.42, 0.65], `${label} seat height`);
      assert.equal(partNamed(geometry, 'basket').kind, 'rattan', label);
      break;
    }
    case 'barbecue':
      assert.ok(Object.values(geometry.materials).some((m) => m.kind === 'metal'), label);
      break;
  }
}

test('decor and fixture generators cover their catalog ids', () => {
  const ids = GENERATORS.flatMap((g) => [...g.ids]).sort();
  assert.deepEqual(ids, [...EXPECTED_IDS].sort());
  const catalogIds = new Set(Object.values(furnitures).flatMap((list) => list.map((f) => f.id)));
  for (const id of ids) assert.ok(catalogIds.has(id), `${id} is not in the catalog`);
});

for (const id of EXPECTED_IDS) {
  test(`${id}: closed parts, footprint equals the mesh, real-world sizes, in every style`, () => {
    const generator = generatorFor(id);
    const range = RANGES[id]!;
    for (const style of STYLE_PROFILES) {
      for (const seed of SEEDS) {
        const label = `${id}/${style.id}/${seed}`;
        const params = generator.sample(id, style, new Random(seed));
        assert.equal(field<string>(params, 'id'), id, label);
        assert.equal(field<string>(params, 'styleId'), style.id, label);
        assert.deepEqual(JSON.parse(JSON.stringify(params)), params, `${label}: params are plain JSON`);
        const fp = generator.footprint(params);
        const geometry = generator.build(params);
        let vertices = 0;
        for (const p of geometry.parts) {
          assert.deepEqual(closedMeshProblems(p.mesh), [], `${label} part ${p.name}`);
          const material = geometry.materials[p.material];
          assert.ok(material, `${label} part ${p.name} has no material ${p.material}`);
          if (material.kind === 'wood') assert.ok(p.grain, `${label} wood part ${p.name} has no grain`);
          vertices += p.mesh.vertices.length;
        }
        assert.ok(vertices < 60000, `${label}: ${vertices} vertices`);
        const b = pieceBounds(geometry);
        const size = [b.max[0]! - b.min[0]!, b.max[1]! - b.min[1]!, b.max[2]! - b.min[2]!];
        assert.ok(Math.abs(size[0]! - fp.width) <= 0.01, `${label}: width ${size[0]} vs footprint ${fp.width}`);
        assert.ok(Math.abs(size[1]! - fp.depth) <= 0.01, `${label}: depth ${size[1]} vs footprint ${fp.depth}`);
        assert.ok(Math.abs(size[2]! - fp.height) <= 0.01, `${label}: height ${size[2]} vs footprint ${fp.height}`);
        assert.ok(Math.abs(b.min[2]! - fp.elevation) <= 0.01, `${label}: bottom ${b.min[2]} vs elevation ${fp.elevation}`);
        assert.ok(Math.abs(b.min[0]! + b.max[0]!) / 2 <= 0.01 && Math.abs(b.min[1]! + b.max[1]!) / 2 <= 0.01, `${label}: not centred`);
        within(fp.width, range.w, `${label} width`);
        within(fp.depth, range.d, `${label} depth`);
        within(fp.height, range.h, `${label} height`);
        assert.ok(([] as Footprint['placement'][]).concat(range.placement).includes(fp.placement), `${label}: placement ${fp.placement}`);
        if (range.elevation) within(fp.elevation, range.elevation, `${label} elevation`);
        else assert.equal(fp.elevation, 0, label);
        checkSpecifics(id, params, geometry, fp, label);
      }
    }
  });
}

test('the same seed gives the same piece, other seeds other pieces', () => {
  for (const id of EXPECTED_IDS) {
    const generator = generatorFor(id);
    const style = styleProfile('scandinavian');
    const a = generator.sample(id, style, new Random(7));
    const b = generator.sample(id, style, new Random(7));
    assert.deepEqual(a, b, id);
    assert.deepEqual(generator.build(a), generator.build(b), id);
    const others = [8, 9, 10].map((seed) => generator.sample(id, style, new Random(seed)));
    assert.ok(others.some((o) => JSON.stringify(o) !== JSON.stringify(a)), `${id}: seeds give the same params`);
  }
});

test('styles of different families give different pieces', () => {
  // Materials differ for every id between a sleek and a classic style.
  for (const id of EXPECTED_IDS) {
    const generator = generatorFor(id);
    const signatures = (styleId: string): Set<string> =>
      new Set(SEEDS.map((seed) => materialSignature(generator.build(generator.sample(id, styleProfile(styleId), new Random(seed))))));
    const modern = signatures('modern');
    const traditional = signatures('traditional');
    assert.ok([...modern].every((s) => !traditional.has(s)), `${id}: modern and traditional share materials`);
  }
  // And the build follows the style: classic tubs stand on feet, modern ones on a plinth; classic lamps have turned
  // poles and empire shades; industrial showers have a black grid frame.
  const tub = generatorFor('freestanding_bathtub');
  const lamp = generatorFor('floor_lamp');
  const shower = generatorFor('shower_enclosure');
  for (const seed of SEEDS) {
    assert.equal(field<string>(tub.sample('freestanding_bathtub', styleProfile('traditional'), new Random(seed)), 'base'), 'feet');
    assert.equal(field<string>(tub.sample('freestanding_bathtub', styleProfile('modern'), new Random(seed)), 'base'), 'plinth');
    const classic = lamp.sample('floor_lamp', styleProfile('parisian'), new Random(seed));
    assert.equal(field<string>(classic, 'shade'), 'empire');
    assert.equal(field<boolean>(classic, 'turned'), true);
    assert.notEqual(field<string>(lamp.sample('floor_lamp', styleProfile('scandinavian'), new Random(seed)), 'kind'), 'arc');
    assert.equal(field<string>(shower.sample('shower_enclosure', styleProfile('industrial'), new Random(seed)), 'frame'), 'grid');
  }
});

test('size limits narrow the sample', () => {
  const rug = generatorFor('rug');
  const tub = generatorFor('bathtub');
  const lamp = generatorFor('floor_lamp');
  for (const style of STYLE_PROFILES) {
    for (const seed of SEEDS) {
      const small = rug.sample('rug', style, new Random(seed), { maxWidth: 1.7, maxDepth: 2.4 });
      const fp = rug.footprint(small);
      assert.ok(fp.width <= 1.7 + 1e-9 && fp.depth <= 2.4 + 1e-9, `rug ${style.id} ${fp.width}×${fp.depth}`);
      assert.ok(tub.footprint(tub.sample('bathtub', style, new Random(seed), { maxWidth: 1.55 })).width <= 1.55 + 1e-9);
      const narrow = lamp.sample('floor_lamp', style, new Random(seed), { maxWidth: 0.9, maxDepth: 0.9 });
      assert.notEqual(field<string>(narrow, 'kind'), 'arc');
      assert.ok(lamp.footprint(narrow).width <= 0.9 + 1e-9);
    }
  }
});
