import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Random } from '../src/random.js';
import { STYLE_PROFILES, styleProfile } from '../src/furniture/styles.js';
import { bounds, merge, translate, type Mesh, type Vec3 } from '../src/furniture/mesh.js';
import type { FurnitureGenerator, PieceGeometry } from '../src/furniture/generator.js';
import { samplePiece } from '../src/furniture/library.js';
import { upholsteredSeating } from '../src/furniture/generators/seating.js';
import { BED_GENERATORS } from '../src/furniture/generators/beds.js';
import { THROW_CHANCE, type ThrowParams } from '../src/furniture/throws.js';
import { closedMeshProblems } from './helpers/mesh-check.js';

/** Throw blankets (src/furniture/throws.ts) on sofas, armchairs and beds. */

const bedGenerator = BED_GENERATORS.find((g) => g.ids.includes('double_bed'))! as FurnitureGenerator<object>;
const seating = upholsteredSeating as unknown as FurnitureGenerator<object>;
const PIECES: readonly [FurnitureGenerator<object>, string][] = [
  [seating, 'sofa_3_seater'],
  [seating, 'sofa_2_seater'],
  [seating, 'corner_sofa'],
  [seating, 'armchair'],
  [bedGenerator, 'double_bed'],
  [bedGenerator, 'single_bed'],
];

function throwOf(params: object): ThrowParams | undefined {
  return (params as { throwBlanket?: ThrowParams }).throwBlanket;
}

/**
 * Whether a point is inside the closed mesh: crossings of a ray straight up (nudged off edges) with its faces, fanned
 * into triangles and binned on a 2 cm grid of the floor plan.
 */
function insideOf(mesh: Mesh): (p: Vec3) => boolean {
  type Triangle = [Vec3, Vec3, Vec3];
  const box = bounds(mesh);
  const cell = 0.02;
  const columns = Math.ceil((box.max[0] - box.min[0]) / cell) + 1;
  const rows = Math.ceil((box.max[1] - box.min[1]) / cell) + 1;
  const bins: Triangle[][] = Array.from({ length: columns * rows }, () => []);
  const col = (x: number): number => Math.min(columns - 1, Math.max(0, Math.floor((x - box.min[0]) / cell)));
  const row = (y: number): number => Math.min(rows - 1, Math.max(0, Math.floor((y - box.min[1]) / cell)));
  for (const face of mesh.faces) {
    const a = mesh.vertices[face[0]!]!;
    for (let k = 1; k + 1 < face.length; k++) {
      const t: Triangle = [a, mesh.vertices[face[k]!]!, mesh.vertices[face[k + 1]!]!];
      for (let i = col(Math.min(t[0][0], t[1][0], t[2][0])); i <= col(Math.max(t[0][0], t[1][0], t[2][0])); i++) {
        for (let j = row(Math.min(t[0][1], t[1][1], t[2][1])); j <= row(Math.max(t[0][1], t[1][1], t[2][1])); j++) bins[j * columns + i]!.push(t);
      }
    }
  }
  return (point) => {
    if (point.some((v, k) => v < box.min[k]! || v > box.max[k]!)) return false;
    const x = point[0] + 1.3e-7;
    const y = point[1] + 0.7e-7;
    let crossings = 0;
    for (const [a, b, c] of bins[row(y) * columns + col(x)]!) {
      const d = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) * (a[1] - c[1]);
      if (Math.abs(d) < 1e-16) continue;
      const l1 = ((b[1] - c[1]) * (x - c[0]) + (c[0] - b[0]) * (y - c[1])) / d;
      const l2 = ((c[1] - a[1]) * (x - c[0]) + (a[0] - c[0]) * (y - c[1])) / d;
      const l3 = 1 - l1 - l2;
      if (l1 < 0 || l2 < 0 || l3 < 0) continue;
      if (l1 * a[2] + l2 * b[2] + l3 * c[2] > point[2]) crossings++;
    }
    return crossings % 2 === 1;
  };
}

/** Names of the other parts that points of the throw (every `stride`-th vertex) lie inside. */
function pierced(geometry: PieceGeometry, stride: number): string[] {
  const blanket = geometry.parts.find((p) => p.name === 'throw')!.mesh;
  const box = bounds(blanket);
  const near = (m: Mesh): boolean => {
    const b = bounds(m);
    return [0, 1, 2].every((k) => b.min[k]! <= box.max[k]! && b.max[k]! >= box.min[k]!);
  };
  const others = geometry.parts.filter((p) => p.name !== 'throw' && near(p.mesh)).map((p) => ({ name: p.name, inside: insideOf(p.mesh) }));
  const hits = new Set<string>();
  for (let i = 0; i < blanket.vertices.length; i += stride) {
    for (const other of others) if (other.inside(blanket.vertices[i]!)) hits.add(other.name);
  }
  return [...hits];
}

test('throws: a closed sheet inside the footprint, clear of the arm, cushions, pillows, duvet and frame it lies on', () => {
  const seen = new Set<string>();
  for (const [generator, id] of PIECES) {
    STYLE_PROFILES.forEach((style, styleIndex) => {
      for (const seed of [3, 29, 42, 58, 77]) {
        const params = generator.sample(id, style, new Random(seed));
        const t = throwOf(params);
        if (!t) continue;
        const label = `${id}/${style.id}/${seed} ${t.placement}`;
        const geometry = generator.build(params);
        const blanket = geometry.parts.find((p) => p.name === 'throw');
        assert.ok(blanket, `${label}: a drawn throw is built`);
        seen.add(`${id.includes('bed') ? 'bed' : id}/${t.placement}`);
        assert.equal(blanket.material, 'throw');
        assert.deepEqual(geometry.materials.throw, t.material, `${label} material`);
        const footprint = generator.footprint(params);
        const b = bounds(blanket.mesh);
        const box = { min: [-footprint.width / 2, -footprint.depth / 2, footprint.elevation], max: [footprint.width / 2, footprint.depth / 2, footprint.elevation + footprint.height] };
        for (let k = 0; k < 3; k++) {
          assert.ok(b.min[k]! >= box.min[k]! - 1e-9 && b.max[k]! <= box.max[k]! + 1e-9, `${label}: the throw ${[...b.min, ...b.max].map((v) => v.toFixed(3))} stays in the footprint box`);
        }
        // With the throw the piece's bounds are what they were without it.
        const rest = bounds(...geometry.parts.filter((p) => p.name !== 'throw').map((p) => p.mesh));
        const all = bounds(...geometry.parts.map((p) => p.mesh));
        assert.deepEqual(all, rest, `${label}: the throw does not widen the piece`);
        assert.ok(b.max[2] - b.min[2] > 0.03, `${label}: draped, not flat`);
        // Closedness on every other style (the slow check), and no point of the throw inside another part.
        if (styleIndex % 2 === 0) assert.deepEqual(closedMeshProblems(blanket.mesh), [], `${label} closed`);
        assert.deepEqual(pierced(geometry, 1), [], `${label}: points of the throw inside other parts`);
      }
    });
  }
  for (const kind of ['sofa_3_seater/arm', 'sofa_3_seater/back-corner', 'armchair/arm', 'armchair/back-corner', 'corner_sofa/arm', 'bed/bed-foot']) assert.ok(seen.has(kind), `${kind} was tested`);
});

test('throws: the arm throw wraps the arm: over its top, down its inner side and onto the seat', () => {
  let checked = 0;
  for (const style of [styleProfile('scandinavian'), styleProfile('traditional'), styleProfile('modern'), styleProfile('japandi')]) {
    for (let seed = 1; seed <= 40 && checked < 12; seed++) {
      const params = seating.sample('armchair', style, new Random(seed)) as { throwBlanket?: ThrowParams; seatHeight: number; armHeight: number };
      const t = params.throwBlanket;
      if (!t || t.placement !== 'arm') continue;
      const geometry = seating.build(params);
      const blanket = bounds(geometry.parts.find((p) => p.name === 'throw')!.mesh);
      const arm = bounds(geometry.parts.find((p) => p.name === (t.side > 0 ? 'arm-right' : 'arm-left'))!.mesh);
      const label = `armchair/${style.id}/${seed}`;
      // Over the arm's top...
      assert.ok(blanket.max[2] > arm.max[2] && blanket.max[2] < arm.max[2] + 0.06, `${label}: on the arm's top`);
      // ...down to the seat, reaching onto it past the arm's inner face.
      assert.ok(blanket.min[2] < params.seatHeight + 0.01 && blanket.min[2] > params.seatHeight - 0.06, `${label}: down on the seat`);
      const innerFace = t.side > 0 ? arm.min[0] : arm.max[0];
      const onSeat = t.side > 0 ? innerFace - blanket.min[0] : blanket.max[0] - innerFace;
      assert.ok(onSeat > t.reach * 0.8 && onSeat < t.reach + 0.08, `${label}: ${onSeat.toFixed(3)} m onto the seat (reach ${t.reach})`);
      // Along the arm, inside its length.
      assert.ok(blanket.min[1] >= arm.min[1] && blanket.max[1] <= arm.max[1], `${label}: along the arm`);
      assert.ok(blanket.max[1] - blanket.min[1] >= 0.19, `${label}: at least 0.2 m wide`);
      if (checked === 0) {
        // The check above would see a throw sunk 2 cm into the arm and the seat.
        const sunk = { ...geometry, parts: geometry.parts.map((p) => (p.name === 'throw' ? { ...p, mesh: translate(p.mesh, [t.side * 0.02, 0, -0.02]) } : p)) };
        const hits = pierced(sunk, 1);
        assert.ok(hits.includes(t.side > 0 ? 'arm-right' : 'arm-left') && hits.includes('seat-cushion-1'), `a sunk throw is caught: ${hits.join(', ')}`);
      }
      checked++;
    }
  }
  assert.ok(checked >= 8, `${checked} arm throws checked`);
});

test('throws: drawn per style with the documented chance, from the seed', () => {
  const seeds = 240;
  const rate = (id: string, styleId: string): { drawn: number; built: number } => {
    let drawn = 0;
    let built = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const piece = samplePiece(id, styleId, seed);
      if (!throwOf(piece.params)) continue;
      drawn++;
      if (seed % 4 === 0) built += piece.build().parts.some((p) => p.name === 'throw') ? 4 : 0;
      else built++;
    }
    return { drawn, built };
  };
  for (const [id, styleId] of [
    ['sofa_3_seater', 'scandinavian'],
    ['armchair', 'traditional'],
    ['double_bed', 'farmhouse'],
    ['sofa_2_seater', 'industrial'],
    ['single_bed', 'minimalist'],
  ] as const) {
    const chance = THROW_CHANCE[styleId]!;
    const { drawn, built } = rate(id, styleId);
    const sigma = Math.sqrt(seeds * chance * (1 - chance));
    assert.ok(Math.abs(drawn - seeds * chance) <= 4 * sigma + 2, `${id}/${styleId}: ${drawn} of ${seeds} with a throw, expected about ${(seeds * chance).toFixed(0)}`);
    assert.ok(built >= drawn * 0.95, `${id}/${styleId}: ${built} of ${drawn} drawn throws have room on the piece`);
  }
  assert.ok(THROW_CHANCE.scandinavian! >= 0.5 && THROW_CHANCE.traditional! >= 0.5, 'Scandinavian and traditional pieces often carry a throw');
  assert.ok(THROW_CHANCE.industrial! <= 0.15 && THROW_CHANCE.minimalist! <= 0.15, 'industrial and minimalist ones rarely');
  // Every placement and both sides occur; the same seed gives the same throw.
  const placements = new Set<string>();
  for (let seed = 1; seed <= 60; seed++) {
    for (const id of ['sofa_3_seater', 'armchair']) {
      const t = throwOf(samplePiece(id, 'scandinavian', seed).params);
      if (t) placements.add(`${t.placement}/${t.side}`);
    }
  }
  assert.deepEqual([...placements].sort(), ['arm/-1', 'arm/1', 'back-corner/-1', 'back-corner/1']);
  assert.deepEqual(samplePiece('armchair', 'scandinavian', 1).params, samplePiece('armchair', 'scandinavian', 1).params);
  const colours = new Set<string>();
  for (let seed = 1; seed <= 80; seed++) {
    const t = throwOf(samplePiece('sofa_3_seater', 'bohemian', seed).params);
    if (!t) continue;
    colours.add(t.material.color);
    assert.ok(['fabric', 'boucle'].includes(t.material.kind), `a knit, wool or linen look, not ${t.material.kind}`);
    assert.ok(t.thickness >= 0.008 && t.thickness <= 0.012, 'about a centimetre thick');
  }
  const accents = styleProfile('bohemian').accents.map((m) => m.color);
  assert.ok([...colours].some((c) => accents.includes(c)) && [...colours].some((c) => !accents.includes(c)), 'accent colours and neutral yarns');
});

/**
 * Pieces drawn before throws existed (same id, style and seed through samplePiece): the parameters other than the
 * throw, and every other part, are what they were. Taken on the commit before throws.ts; the first four now carry
 * a throw, the last two do not. Vertex counts per part and the bounds (0.1 mm) of all of them together, a hash of
 * the parameters without `throwBlanket` and one of every vertex of the other parts (to a micrometre).
 */
const BEFORE_THROWS = [
  { key: 'sofa_3_seater/traditional/2', params: 'e20d56ec7b749a48', geometry: '04abde2e96c45e10', vertices: [416, 416, 354, 152, 770, 770, 770, 770, 770, 770, 480, 182, 182, 182], bounds: [-11725, -4935, 0, 11725, 4935, 8670] },
  { key: 'armchair/scandinavian/1', params: '7d42f005a810af86', geometry: '9f629a26caf272b1', vertices: [296, 296, 354, 152, 770, 770, 336], bounds: [-4105, -4430, -17, 4105, 4430, 9070] },
  { key: 'corner_sofa/scandinavian/7', params: '044a70136ca8cabf', geometry: '2dab82fc89fb97e3', vertices: [296, 296, 354, 304, 770, 770, 770, 770, 770, 770, 504, 182, 182, 182], bounds: [-12615, -9210, -21, 12615, 9210, 8280] },
  { key: 'double_bed/scandinavian/1', params: '4b4d12c26de8615a', geometry: '5970350d51a18c38', vertices: [304, 304, 152, 168, 304, 1824, 488, 1082, 398, 532], bounds: [-7433, -10621, 0, 7433, 10621, 11163] },
  { key: 'single_bed/traditional/3', params: 'a87d6e37b6de82ea', geometry: '2f97d33cb6760804', vertices: [432, 296, 1304, 2280, 488, 1082, 398, 266], bounds: [-5337, -11064, 0, 5337, 11064, 10440] },
  { key: 'sofa_2_seater/industrial/42', params: '62c96aa3c5cbe60f', geometry: 'bdf0f1e0733e29bf', vertices: [296, 296, 354, 152, 770, 770, 770, 770, 64, 182, 182, 182], bounds: [-7720, -4475, 0, 7720, 4475, 8120] },
];

const hash = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

test('throws: every other parameter and part of a seed is what it was before throws existed', () => {
  BEFORE_THROWS.forEach((before, i) => {
    const [id, styleId, seed] = before.key.split('/') as [string, string, string];
    const piece = samplePiece(id, styleId, Number(seed));
    assert.equal(throwOf(piece.params) !== undefined, i < 4, `${before.key} carries a throw`);
    const { throwBlanket: _, ...params } = piece.params as { throwBlanket?: ThrowParams };
    assert.equal(hash(params), before.params, `${before.key}: the parameters without the throw`);
    const geometry = piece.build();
    const parts = geometry.parts.filter((p) => p.name !== 'throw');
    assert.deepEqual(parts.map((p) => p.mesh.vertices.length), before.vertices, `${before.key}: vertices per part`);
    const b = bounds(merge(...parts.map((p) => p.mesh)));
    assert.deepEqual([...b.min, ...b.max].map((v) => Math.round(v * 1e4)), before.bounds, `${before.key}: bounds`);
    assert.equal(hash(parts.map((p) => p.mesh.vertices.map((v) => v.map((c) => Math.round(c * 1e6))))), before.geometry, `${before.key}: every vertex`);
    assert.equal(geometry.parts.some((p) => p.name === 'throw'), i < 4);
    // The same parameters without the throw build the same other parts.
    const without = (id.includes('bed') ? bedGenerator : seating).build(params);
    assert.deepEqual(without.parts, parts, `${before.key}: the throw changes no other part`);
    assert.equal(without.materials.throw, undefined);
  });
});
