import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FurnitureGenerator, PieceGeometry } from '../src/furniture/generator.js';
import { BED_GENERATORS, type BedParams, type BunkParams, type CotParams, type LoungerParams } from '../src/furniture/generators/beds.js';
import { TABLE_GENERATORS, type TableParams } from '../src/furniture/generators/tables.js';
import { bounds, merge, type Mesh } from '../src/furniture/mesh.js';
import { STYLE_PROFILES, styleProfile } from '../src/furniture/styles.js';
import { Random } from '../src/random.js';
import { closedMeshProblems } from './helpers/mesh-check.js';

const GENERATORS = [...TABLE_GENERATORS, ...BED_GENERATORS] as readonly FurnitureGenerator<object>[];
const IDS = GENERATORS.flatMap((g) => [...g.ids]);
const SEEDS = [11, 202, 3003];
const BED_IDS = new Set(BED_GENERATORS.flatMap((g) => [...g.ids]));

/**
 * Building and checking every mesh is the slow part: tables are built for two of the seeds, the heavier beds for one
 * seed per style, turning through all three across the styles.
 */
function buildSeeds(id: string, styleIndex: number): number[] {
  return BED_IDS.has(id) ? [SEEDS[styleIndex % SEEDS.length]!] : SEEDS.slice(0, 2);
}

function generatorFor(id: string): FurnitureGenerator<object> {
  const generator = GENERATORS.find((g) => g.ids.includes(id));
  assert.ok(generator, `a generator builds ${id}`);
  return generator;
}

function sample(id: string, styleId: string, seed: number): object {
  return generatorFor(id).sample(id, styleProfile(styleId), new Random(seed));
}

function inRange(value: number, min: number, max: number, what: string): void {
  assert.ok(value >= min - 1e-9 && value <= max + 1e-9, `${what} = ${value.toFixed(3)} outside [${min}, ${max}]`);
}

function partMesh(geometry: PieceGeometry, name: string): Mesh {
  const part = geometry.parts.find((p) => p.name === name);
  assert.ok(part, `part ${name}`);
  return part.mesh;
}

/** The real-world sizes each id must keep. */
function checkDimensions(id: string, params: object, geometry: PieceGeometry, where: string): void {
  if (TABLE_GENERATORS.some((g) => g.ids.includes(id))) {
    const p = params as TableParams;
    const height: Record<string, [number, number]> = {
      coffee_table: [0.4, 0.45],
      side_table: [0.5, 0.6],
      dining_table: [0.73, 0.77],
      kitchen_table: [0.73, 0.77],
      console_table: [0.75, 0.85],
      desk: [0.72, 0.76],
      garden_table: [0.72, 0.76],
      outdoor_coffee_table: [0.36, 0.42],
    };
    const width: Record<string, [number, number]> = {
      coffee_table: [0.8, 1.3],
      side_table: [0.4, 0.55],
      dining_table: [1.1, 2.2],
      kitchen_table: [0.9, 1.4],
      console_table: [1.0, 1.4],
      desk: [1.2, 1.6],
      garden_table: [1.0, 1.9],
      outdoor_coffee_table: [0.7, 1.2],
    };
    inRange(p.height, ...height[id]!, `${where} table height`);
    inRange(p.width, ...width[id]!, `${where} table width`);
    assert.ok(p.depth <= p.width + 1e-9, `${where} depth ${p.depth} ≤ width ${p.width}`);
    if (id === 'console_table') inRange(p.depth, 0.3, 0.42, `${where} console depth`);
    if (id === 'desk') inRange(p.depth, 0.6, 0.75, `${where} desk depth`);
    if (id === 'dining_table' && p.shape === 'rect') inRange(p.depth, 0.85, 1.0, `${where} dining depth`);
    if (p.shape !== 'rect') assert.ok(p.legCount === 3 || p.legCount === 4);
    // The top is at the table's height and a board of real thickness.
    inRange(bounds(partMesh(geometry, 'top')).max[2], p.height - 0.001, p.height + 0.001, `${where} top`);
    inRange(p.topThickness, 0.01, 0.06, `${where} top thickness`);
    return;
  }
  const mattress = (name: string): [number, number, number] => {
    const b = bounds(partMesh(geometry, name));
    return [b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2]];
  };
  if (id === 'double_bed' || id === 'single_bed') {
    const p = params as BedParams;
    const [w, l, top] = mattress('mattress');
    const widths = id === 'double_bed' ? [1.4, 1.6, 1.8] : [0.9];
    const lengths = id === 'double_bed' ? [2.0] : [1.9, 2.0];
    assert.ok(widths.some((v) => Math.abs(v - w) < 0.005), `${where} mattress width ${w}`);
    assert.ok(lengths.some((v) => Math.abs(v - l) < 0.005), `${where} mattress length ${l}`);
    inRange(top, 0.3, 0.7, `${where} mattress top`);
    inRange(p.height, top + 0.2, 1.45, `${where} headboard height`);
    inRange(p.width - p.mattressWidth, 0.06, 0.35, `${where} frame beyond the mattress`);
    inRange(p.pillows.sleeping + p.pillows.decorative, id === 'double_bed' ? 2 : 1, id === 'double_bed' ? 4 : 2, `${where} pillows`);
    if (p.frame === 'platform') assert.equal(p.headboard, 'low');
    return;
  }
  if (id === 'bunk_bed') {
    const p = params as BunkParams;
    for (const level of ['lower-mattress', 'upper-mattress']) {
      const [w, l] = mattress(level);
      assert.ok(Math.abs(w - 0.9) < 0.005 && (Math.abs(l - 1.9) < 0.005 || Math.abs(l - 2.0) < 0.005), `${where} ${level} ${w} × ${l}`);
    }
    inRange(p.height, 1.45, 1.75, `${where} bunk height`);
    inRange(p.upperDeck - p.lowerDeck, 0.8, 1.2, `${where} space between the bunks`);
    assert.ok(geometry.parts.some((part) => part.name === 'ladder'), `${where} ladder`);
    return;
  }
  if (id === 'baby_cot') {
    const p = params as CotParams;
    const [w, l] = mattress('mattress');
    assert.ok(Math.abs(w - 0.6) < 0.005 && Math.abs(l - 1.2) < 0.005, `${where} cot mattress ${w} × ${l}`);
    inRange(p.height, 0.8, 0.95, `${where} cot height`);
    // Bars close enough that a baby's head cannot pass.
    assert.ok(p.slatPitch - p.slatSize <= 0.065, `${where} gap between bars`);
    return;
  }
  if (id === 'sun_lounger') {
    const p = params as LoungerParams;
    inRange(p.width, 0.55, 0.76, `${where} lounger width`);
    inRange(p.length, 1.8, 2.02, `${where} lounger length`);
    inRange(p.deck, 0.3, 0.38, `${where} lounger seat`);
    inRange(p.backAngle, 0.2, 0.95, `${where} back angle`);
    inRange(p.cushion, 0.03, 0.06, `${where} cushion`);
    return;
  }
  assert.fail(`no dimension check for ${id}`);
}

test('tables and beds: every catalog id of the family has a generator', () => {
  for (const id of ['coffee_table', 'side_table', 'dining_table', 'kitchen_table', 'console_table', 'desk', 'garden_table', 'outdoor_coffee_table', 'double_bed', 'single_bed', 'bunk_bed', 'baby_cot', 'sun_lounger']) {
    assert.ok(IDS.includes(id), id);
  }
  assert.equal(new Set(IDS).size, IDS.length, 'each id is built by one generator');
});

test('tables and beds: closed parts, bounds equal to the footprint, real-world sizes, for every id and style', () => {
  for (const generator of GENERATORS) {
    for (const id of generator.ids) {
      for (const [styleIndex, style] of STYLE_PROFILES.entries()) {
        for (const seed of buildSeeds(id, styleIndex)) {
          const where = `${id}/${style.id}/${seed}`;
          const params = generator.sample(id, style, new Random(seed));
          const json = params as { id?: unknown; styleId?: unknown };
          assert.equal(json.id, id, where);
          assert.equal(json.styleId, style.id, where);
          assert.deepEqual(JSON.parse(JSON.stringify(params)), params, `${where} params are plain JSON`);
          const footprint = generator.footprint(params);
          const geometry = generator.build(params);
          assert.ok(geometry.parts.length > 0, where);
          for (const part of geometry.parts) {
            assert.deepEqual(closedMeshProblems(part.mesh), [], `${where} part ${part.name}`);
            const material = geometry.materials[part.material];
            assert.ok(material, `${where} part ${part.name} has its material ${part.material}`);
            if (material.kind === 'wood') assert.ok(part.grain, `${where} wood part ${part.name} has a grain`);
          }
          const all = merge(...geometry.parts.map((p) => p.mesh));
          assert.ok(all.vertices.length < 60000, `${where} ${all.vertices.length} vertices`);
          const b = bounds(all);
          const close = (actual: number, expected: number, what: string): void => assert.ok(Math.abs(actual - expected) <= 0.01, `${where} ${what}: mesh ${actual.toFixed(3)} vs footprint ${expected.toFixed(3)}`);
          close(b.min[0], -footprint.width / 2, 'left');
          close(b.max[0], footprint.width / 2, 'right');
          close(b.min[1], -footprint.depth / 2, 'front');
          close(b.max[1], footprint.depth / 2, 'back');
          close(b.min[2], footprint.elevation, 'bottom');
          close(b.max[2], footprint.elevation + footprint.height, 'top');
          checkDimensions(id, params, geometry, where);
        }
      }
    }
  }
});

test('tables and beds: the same seed gives the same piece, another seed another one', () => {
  for (const id of IDS) {
    for (const style of STYLE_PROFILES) {
      const draws = SEEDS.map((seed) => sample(id, style.id, seed));
      assert.deepEqual(sample(id, style.id, SEEDS[0]!), draws[0], `${id}/${style.id}`);
      for (let i = 1; i < draws.length; i++) assert.notDeepEqual(draws[i], draws[0], `${id}/${style.id} seed ${SEEDS[i]}`);
    }
  }
});

test('tables and beds: the style drives legs, headboards and materials, not just colours', () => {
  const seeds = Array.from({ length: 12 }, (_, i) => i + 1);
  // Scandinavian wooden legs against industrial metal ones.
  const legs = (styleId: string): Set<string> => new Set(seeds.map((s) => (sample('coffee_table', styleId, s) as TableParams).leg));
  const scandinavian = legs('scandinavian');
  const industrial = legs('industrial');
  assert.deepEqual([...scandinavian].filter((k) => industrial.has(k)), [], 'no leg kind shared');
  assert.ok([...industrial].every((k) => k === 'metal-square' || k === 'hairpin'), `industrial legs ${[...industrial].join(', ')}`);
  const baseKinds = (styleId: string): Set<string> => new Set(seeds.map((s) => (sample('dining_table', styleId, s) as TableParams).materials.base.kind));
  assert.ok(baseKinds('industrial').has('metal'));
  assert.ok(!baseKinds('scandinavian').has('metal'));
  // Tufted styles get tufted headboards, japandi a low platform, scandinavian wood.
  const headboards = (styleId: string): Set<string> => new Set(seeds.map((s) => (sample('double_bed', styleId, s) as BedParams).headboard));
  assert.ok(headboards('traditional').has('tufted'));
  assert.ok(headboards('japandi').has('low'));
  assert.ok(!headboards('japandi').has('tufted') && !headboards('scandinavian').has('tufted'));
  assert.ok([...headboards('scandinavian')].some((h) => h === 'slatted' || h === 'panel'));
  // A rustic dining table has a trestle or a pedestal now and then; a modern one never a trestle.
  const bases = (styleId: string): Set<string> => new Set(Array.from({ length: 30 }, (_, i) => (sample('dining_table', styleId, i) as TableParams).base));
  assert.ok(bases('rustic').has('trestle') || bases('rustic').has('pedestal'));
  assert.ok(!bases('modern').has('trestle'));
});

test('tables and beds: size limits pick smaller real sizes, never below them', () => {
  const style = styleProfile('luxury');
  const bed = generatorFor('double_bed');
  for (let seed = 0; seed < 6; seed++) {
    const p = bed.sample('double_bed', style, new Random(seed), { maxWidth: 1.6 }) as BedParams;
    assert.equal(p.mattressWidth, 1.4, 'a 140 mattress fits a 1.6 m wide space');
  }
  const table = generatorFor('dining_table');
  for (let seed = 0; seed < 6; seed++) {
    const p = table.sample('dining_table', style, new Random(seed), { maxWidth: 1.5, maxHeight: 0.5 }) as TableParams;
    assert.equal(p.shape, 'round', 'a round table where a long one does not fit');
    assert.ok(p.width <= 1.5 + 1e-9 && p.width >= 1.1, `width ${p.width}`);
    assert.equal(p.height, 0.73, 'a dining table stays at dining height');
  }
  // Before one armchair (two thirds of its 0.74–0.95 m) a coffee table is a small round drum, not a sofa's 0.8 m and
  // more; asked for less than its smallest, it takes its smallest.
  const coffee = generatorFor('coffee_table');
  for (let seed = 0; seed < 12; seed++) {
    for (const maxWidth of [0.6, 0.49]) {
      const p = coffee.sample('coffee_table', style, new Random(seed), { maxWidth }) as TableParams;
      assert.equal(p.shape, 'round', `seed ${seed}, ${maxWidth} m: shape`);
      assert.ok(p.width <= Math.max(maxWidth, 0.5) + 1e-9 && p.width >= 0.5, `seed ${seed}, ${maxWidth} m: width ${p.width}`);
      assert.ok(p.height >= 0.4, `seed ${seed}: still coffee-table height`);
    }
  }
  const lounger = generatorFor('sun_lounger');
  const p = lounger.sample('sun_lounger', style, new Random(5), { maxHeight: 0.6 });
  assert.ok(lounger.footprint(p).height <= 0.6 + 1e-9, 'the back is lowered to fit');
});
