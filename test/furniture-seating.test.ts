import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Random } from '../src/random.js';
import { STYLE_PROFILES, styleProfile, type StyleProfile } from '../src/furniture/styles.js';
import { bounds, merge, type Mesh } from '../src/furniture/mesh.js';
import type { FurnitureGenerator, PieceGeometry } from '../src/furniture/generator.js';
import { SEATING_GENERATORS, upholsteredSeating, type OutdoorParams, type SofaParams } from '../src/furniture/generators/seating.js';
import { CHAIR_GENERATORS, sideChairs, type BarStoolParams, type ChairParams, type SwivelParams } from '../src/furniture/generators/chairs.js';
import { closedMeshProblems } from './helpers/mesh-check.js';

const GENERATORS: readonly FurnitureGenerator[] = [...SEATING_GENERATORS, ...CHAIR_GENERATORS];
const SEEDS = [11, 4242, 90210];

function topOf(geometry: PieceGeometry, prefix: string): number {
  const meshes: Mesh[] = geometry.parts.filter((p) => p.name.startsWith(prefix)).map((p) => p.mesh);
  assert.ok(meshes.length > 0, `a part named ${prefix}…`);
  return bounds(merge(...meshes)).max[2];
}

function within(value: number, min: number, max: number, what: string): void {
  assert.ok(value >= min - 1e-9 && value <= max + 1e-9, `${what} ${value.toFixed(3)} not in [${min}, ${max}]`);
}

/** The real-world sizes each id must keep, checked on the parameters and on the built mesh. */
function checkSizes(id: string, style: StyleProfile, params: object, geometry: PieceGeometry): void {
  const label = `${id}/${style.id}`;
  switch (id) {
    case 'sofa_3_seater':
    case 'sofa_2_seater':
    case 'corner_sofa':
    case 'armchair': {
      const p = params as SofaParams;
      within(p.seatHeight, style.seatHeight[0], style.seatHeight[1], `${label} seat height`);
      if (id === 'armchair') {
        within(p.width, 0.74, 0.95, `${label} width`);
        within(p.depth, 0.78, 0.92, `${label} depth`);
        within(p.height, style.sofaHeight[0] + 0.02, Math.min(1.0, style.sofaHeight[1] + 0.1), `${label} height`);
      } else {
        within(p.height, style.sofaHeight[0], style.sofaHeight[1], `${label} height`);
        if (id === 'corner_sofa') {
          within(p.width, 2.3, 3.0, `${label} width`);
          within(p.depth, 1.5, 1.85, `${label} chaise depth`);
          within(p.mainDepth, 0.85, 1.0, `${label} depth`);
        } else {
          within(p.depth, 0.85, 1.0, `${label} depth`);
          within(p.width, id === 'sofa_3_seater' ? 1.95 : 1.45, id === 'sofa_3_seater' ? 2.35 : 1.8, `${label} width`);
        }
      }
      assert.ok(style.legs.includes(p.legKind), `${label} leg kind ${p.legKind} is the style's`);
      assert.ok(style.arms.includes(p.armKind), `${label} arm kind ${p.armKind} is the style's`);
      assert.ok(style.upholstery.includes(p.materials.upholstery), `${label} upholstery is the style's`);
      within(topOf(geometry, 'seat-cushion'), p.seatHeight - 0.005, p.seatHeight + 0.001, `${label} seat cushion top`);
      const seats = geometry.parts.filter((q) => q.name.startsWith('seat-cushion')).length;
      if (p.bench) assert.equal(seats, 1, `${label} one bench cushion`);
      else within(seats, id === 'armchair' ? 1 : 2, id === 'armchair' ? 1 : 3, `${label} seat cushions`);
      if (p.backKind === 'cushions') assert.ok(geometry.parts.some((q) => q.name.startsWith('back-cushion')), `${label} back cushions`);
      if (p.backKind === 'tufted') assert.ok(geometry.parts.some((q) => q.name === 'tufting'), `${label} tufting buttons`);
      if (p.backKind === 'tufted') assert.ok(style.tufted, `${label} tufted only in tufted styles`);
      assert.ok(geometry.parts.some((q) => q.name === 'arm-left') && geometry.parts.some((q) => q.name === 'arm-right'), `${label} two arms`);
      break;
    }
    case 'outdoor_sofa':
    case 'garden_armchair': {
      const p = params as OutdoorParams;
      within(p.seatHeight, 0.38, 0.44, `${label} seat height`);
      within(p.height, 0.7, 0.86, `${label} height`);
      within(p.width, id === 'outdoor_sofa' ? 1.7 : 0.66, id === 'outdoor_sofa' ? 2.1 : 0.84, `${label} width`);
      within(p.depth, 0.72, 0.92, `${label} depth`);
      within(p.seatThickness, 0.12, 0.16, `${label} cushion thickness`);
      assert.equal(p.materials.cushion.kind, 'fabric', `${label} outdoor fabric`);
      within(topOf(geometry, 'seat-cushion'), p.seatHeight - 0.005, p.seatHeight + 0.001, `${label} seat cushion top`);
      break;
    }
    case 'dining_chair':
    case 'kitchen_chair':
    case 'garden_chair': {
      const p = params as ChairParams;
      if (id === 'garden_chair') within(p.seatHeight, 0.43, 0.46, `${label} seat height`);
      else within(p.seatHeight, 0.44, 0.48, `${label} seat height`);
      within(p.height, 0.78, 0.95, `${label} height`);
      within(p.width, 0.4, 0.56, `${label} width`);
      within(p.depth, 0.47, 0.6, `${label} depth`);
      within(topOf(geometry, 'seat'), p.seatHeight - 0.002, p.seatHeight + 0.001, `${label} seat top`);
      const legs = geometry.parts.find((q) => q.name === 'legs');
      assert.ok(legs && bounds(legs.mesh).min[2] < 0.005, `${label} legs reach the floor`);
      if (id !== 'garden_chair') {
        assert.ok(p.legKind !== 'plinth', `${label} no plinth under a chair`);
        if (['luxury', 'parisian', 'art_deco'].includes(style.id)) assert.ok(['upholstered', 'cane'].includes(p.backKind), `${label} upholstered back`);
        if (style.id === 'farmhouse') assert.ok(['spindles', 'slats'].includes(p.backKind), `${label} farmhouse back`);
      }
      break;
    }
    case 'office_chair':
    case 'gaming_chair': {
      const p = params as SwivelParams;
      const gaming = id === 'gaming_chair';
      within(p.seatHeight, 0.44, 0.52, `${label} seat height`);
      within(p.height, gaming ? 1.25 : 0.95, gaming ? 1.38 : 1.15, `${label} height`);
      within(topOf(geometry, 'seat'), p.seatHeight - 0.001, p.seatHeight + 0.05, `${label} seat top`);
      const casters = geometry.parts.find((q) => q.name === 'casters');
      assert.ok(casters && bounds(casters.mesh).min[2] < 0.002, `${label} casters on the floor`);
      assert.ok(geometry.parts.some((q) => q.name === 'star-base') && geometry.parts.some((q) => q.name === 'gas-column'), `${label} five-star base and gas column`);
      if (gaming) assert.ok(geometry.parts.some((q) => q.name === 'back-wings') && geometry.parts.some((q) => q.name === 'armrests'), `${label} wings and armrests`);
      break;
    }
    case 'bar_stool': {
      const p = params as BarStoolParams;
      within(p.seatHeight, 0.63, 0.78, `${label} seat height`);
      within(topOf(geometry, 'seat'), p.seatHeight - 0.001, p.seatHeight + 0.001, `${label} seat top`);
      const footrest = geometry.parts.find((q) => q.name === 'footrest');
      assert.ok(footrest, `${label} footrest`);
      const b = bounds(footrest.mesh);
      within((b.min[2] + b.max[2]) / 2, 0.15, 0.4, `${label} footrest height`);
      break;
    }
    default:
      assert.fail(`no size check for ${id}`);
  }
}

for (const generator of GENERATORS) {
  for (const id of generator.ids) {
    test(`${id}: closed parts, footprint = mesh bounds and real sizes in every style`, () => {
      STYLE_PROFILES.forEach((style, styleIndex) => {
        SEEDS.forEach((seed, seedIndex) => {
          const params = generator.sample(id, style, new Random(seed));
          assert.equal((params as { id: string }).id, id);
          assert.equal((params as { styleId: string }).styleId, style.id);
          const footprint = generator.footprint(params);
          const geometry = generator.build(params);
          const label = `${id}/${style.id}/${seed}`;
          // Closedness is the slow check: every other style, one seed each, a different one from style to style.
          if (styleIndex % 2 === 0 && seedIndex === (styleIndex / 2) % SEEDS.length) {
            for (const part of geometry.parts) assert.deepEqual(closedMeshProblems(part.mesh), [], `${label} ${part.name}`);
          }
          for (const part of geometry.parts) assert.ok(geometry.materials[part.material], `${label} ${part.name} material ${part.material}`);
          const all = merge(...geometry.parts.map((p) => p.mesh));
          assert.ok(all.vertices.length < 40000, `${label} ${all.vertices.length} vertices`);
          const b = bounds(all);
          const expected = [-footprint.width / 2, -footprint.depth / 2, footprint.elevation, footprint.width / 2, footprint.depth / 2, footprint.elevation + footprint.height];
          const actual = [...b.min, ...b.max];
          actual.forEach((v, k) => assert.ok(Math.abs(v - expected[k]!) <= 0.01, `${label} bounds ${actual.map((x) => x.toFixed(3))} vs footprint ${expected.map((x) => x.toFixed(3))}`));
          checkSizes(id, style, params, geometry);
        });
      });
    });
  }
}

test('seating: the same seed gives the same piece, another seed another one', () => {
  for (const generator of GENERATORS) {
    for (const id of generator.ids) {
      for (const style of [styleProfile('scandinavian'), styleProfile('art_deco')]) {
        const a = generator.sample(id, style, new Random(7));
        const b = generator.sample(id, style, new Random(7));
        const c = generator.sample(id, style, new Random(8));
        assert.deepEqual(a, b, `${id}/${style.id} same seed`);
        assert.deepEqual(JSON.parse(JSON.stringify(a)), a, `${id}/${style.id} params are plain JSON`);
        assert.notDeepEqual(a, c, `${id}/${style.id} another seed`);
        if (style.id === 'art_deco') assert.deepEqual(generator.build(a), generator.build(b), `${id}/${style.id} same mesh`);
      }
    }
  }
});

test('seating: styles of different families choose different legs, arms and materials', () => {
  const seeds = [1, 2, 3, 4, 5, 6];
  const sofas = (styleId: string): SofaParams[] => seeds.map((s) => upholsteredSeating.sample('sofa_3_seater', styleProfile(styleId), new Random(s)));
  const scandinavian = sofas('scandinavian');
  const industrial = sofas('industrial');
  const legs = new Set(scandinavian.map((p) => p.legKind));
  assert.ok(industrial.every((p) => !legs.has(p.legKind)), 'Scandinavian and industrial sofas share no leg kind');
  const colours = new Set(scandinavian.map((p) => p.materials.upholstery.color));
  assert.ok(industrial.every((p) => !colours.has(p.materials.upholstery.color)), 'nor an upholstery');
  const traditional = sofas('traditional');
  assert.ok(traditional.every((p) => p.armKind === 'rolled'), 'traditional sofas have rolled arms');
  assert.ok(sofas('minimalist').every((p) => p.legKind === 'plinth' || p.legKind === 'block'), 'minimalist sofas sit on a plinth or blocks');

  const chairs = (styleId: string): ChairParams[] => seeds.map((s) => sideChairs.sample('dining_chair', styleProfile(styleId), new Random(s)));
  assert.ok(chairs('luxury').every((p) => p.backKind === 'upholstered' && p.seatKind === 'upholstered'), 'luxury dining chairs are upholstered');
  const farmhouse = chairs('farmhouse');
  assert.ok(farmhouse.some((p) => p.backKind === 'spindles'), 'farmhouse chairs have spindle backs');
  const modern = chairs('modern');
  assert.ok(modern.some((p) => p.backKind === 'solid'), 'modern chairs have solid curved backs');
  assert.notDeepEqual(
    farmhouse.map((p) => [p.legKind, p.materials.frame.color]),
    modern.map((p) => [p.legKind, p.materials.frame.color]),
  );
});

test('seating: the corner sofa puts its chaise on either side, and limits shrink a piece', () => {
  const sides = new Set<number>();
  for (let seed = 1; seed <= 12; seed++) sides.add(upholsteredSeating.sample('corner_sofa', styleProfile('modern'), new Random(seed)).chaiseSide);
  assert.deepEqual([...sides].sort(), [-1, 1]);
  const small = upholsteredSeating.sample('sofa_3_seater', styleProfile('coastal'), new Random(3), { maxWidth: 1.8, maxDepth: 0.86 });
  assert.ok(small.width <= 1.8 && small.depth <= 0.86);
  const footprint = upholsteredSeating.footprint(small);
  const b = bounds(merge(...upholsteredSeating.build(small).parts.map((p) => p.mesh)));
  assert.ok(Math.abs(b.max[0] - footprint.width / 2) < 0.01);
});
