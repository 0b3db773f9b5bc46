import { roomProgramme, type ProgrammeGroup, type ProgrammeMember } from '../catalog/room-programmes.js';
import type { Footprint } from '../furniture/generator.js';
import { samplePiece, type SampledPiece } from '../furniture/library.js';
import { Random } from '../random.js';
import { pose, type Placement } from './place-piece.js';
import { brokenRule, convexOverlap, countRefusal, isFlat, noSpotReason, ON_WALL_GAP_M, WALL_GAP_M, wallGap, type Refusals, type RuleRequest, type RuleSettings } from './placement-rules.js';
import { blockFaces, blockOutline, projectWorld, type RoomModel, type WallLabel } from './room-model.js';
import { checkWalkway } from './walkway.js';

/** The nearest a piece's footprint comes to the camera (the camera's own side of the room is where people stand). */
export const PLAN_NEAREST_M = 0.8;
/** Secondary walkway: a person 0.6 m wide reaches every door from the camera's side (main walkways 0.9 m are scored). */
export const WALKWAY_M = 0.6;
export const MAIN_WALKWAY_M = 0.9;
/** Gap kept between pieces of different groups. */
const PIECE_GAP_M = 0.05;
const GRID_STEP_M = 0.1;
const CANDIDATES_PER_GROUP = 24;
const CANDIDATE_SPACING_M = 0.4;
/** Floor kept clear beside a bed (the anchors: at least 0.6 m to make it and get in); a bed this wide needs both sides. */
const BED_SIDE_M = 0.6;
const DOUBLE_BED_WIDTH_M = 1.2;
/** The head end of a bed's sides, where nightstands stand. */
const NIGHTSTAND_DEPTH_M = 0.5;
/** From a dining table's edge, the floor behind each chair kept clear to pull it out and pass (the anchors: 0.9–1.1 m). */
const CHAIR_PULL_OUT_M = 0.9;
/** Art hangs with its foot at least this far over the top of what stands under it (the anchors: 15–25 cm). */
const ART_CLEARANCE_M = 0.15;
/** How far a chair's seat tucks under its table. */
const CHAIR_TUCK_M = 0.1;
/**
 * Fewest chairs around a table: a table with one chair reads as a room left half-furnished (seen on empty_dining_01:
 * a table with one chair, cut by the frame).
 */
const MIN_CHAIRS_AROUND = 2;
/**
 * Looser than one piece's rules: a room's pieces stand from PLAN_NEAREST_M, may be cut by the frame's sides (only
 * each footprint's centre need be seen), and its rugs may lie in door strips (the walkway check keeps doors
 * reachable). Each of the single piece's stricter settings lowers the plans' completeness (bench:staging-plans).
 */
const ROOM_PIECE_RULES: RuleSettings = { nearestM: PLAN_NEAREST_M, seen: 'footprint-centre', flatPiecesInDoorStrips: true };
/** A hard violation outweighs any score (Infinigen's annealer: a move that lowers violations always wins). */
const HARD = 1000;
/**
 * A piece is staged to be seen: the share of its image box that nearer pieces of other groups may cover before the
 * plan pays for it (seen on the stagings of the shared empty rooms: a floor lamp 88–96 % behind a plant, a chest of
 * drawers behind a bed; bench:staging-plans counted 92 pieces more than half hidden in 63 of 144 photo plans)…
 */
const HIDDEN_ALLOWED = 0.5;
/** …and what the plan pays per piece for each further share hidden (placing a group earns 1 plus its score). */
const HIDDEN_WEIGHT = 2;

export interface PlanRequest {
  roomId: string;
  styleId: string;
  seed: number;
  preserveWindows: boolean;
  /** Photo-sized; non-zero where furniture may stand. */
  mask?: Uint8Array;
  /** Image outlines of furniture already in the photo: nothing is planned over them. */
  obstacles?: [number, number][][];
  /** Whether the photo shows plain wall where a piece would hang or stand against it (RuleRequest.plainWall). */
  plainWall?: RuleRequest['plainWall'];
  /** Place the decor groups (lamps, plants, rugs alone). */
  decor: boolean;
  /** Refine by simulated annealing (smart-staging-v2, furnish); without it the first good arrangement (legacy). */
  anneal: boolean;
}

export interface PlannedPiece {
  group: string;
  /** The programme entry it fills: 0 the group's anchor, 1… its members (chairs around a table share one). */
  entry: number;
  furnitureId: string;
  piece: SampledPiece;
  placement: Placement;
}

export interface PlanShortfall {
  group: string;
  furnitureId: string;
  reason: string;
}

export interface RoomPlan {
  roomId: string;
  pieces: PlannedPiece[];
  /** What the programme asked for and the plan left out. */
  missing: PlanShortfall[];
  /** Hard rules the plan still breaks (empty when the plan is sound). */
  violations: string[];
  /** Programme entries filled over entries asked for (chairs around a table are one entry). */
  completeness: number;
  score: number;
  /** Whether a 0.9 m main walkway reaches every door too. */
  mainWalkway: boolean;
  milliseconds: number;
}

interface GroupCandidate {
  pieces: PlannedPiece[];
  /** Floor the group needs kept clear of other groups' pieces (beside a bed, behind dining chairs). */
  clearances: [number, number][][];
  dropped: PlanShortfall[];
  score: number;
}

/**
 * A whole room's furniture from its programme: each group's anchor is tried at every pose on a 10 cm grid (against
 * a visible wall, near a corner or free on the seen floor), its members placed relative to it, and the poses that
 * keep every piece inside the room, on floor the photo shows, off door strips, inside the mask and (with
 * preserveWindows) off windows and doors are kept with their score. Then a choice of one pose per group (or none,
 * for optional groups) is made greedily and refined by simulated annealing on: no two groups' pieces overlapping, a
 * person reaching every door from the camera's side (0.6 m), the programme complete, the poses' scores, and every
 * piece mostly in view (hiddenExcess).
 */
export function planRoom(room: RoomModel, request: PlanRequest): RoomPlan {
  const started = performance.now();
  const programme = roomProgramme(request.roomId);
  if (!programme) throw new Error(`no programme for room ${request.roomId}`);
  const random = new Random(request.seed).fork(`plan/${request.roomId}`);
  const groups = programme.groups.filter((g) => request.decor || !g.decor).map((g) => (request.decor ? g : { ...g, members: g.members.filter((m) => !m.decor) }));
  const asked = groups.reduce((n, g) => n + 1 + g.members.length, 0);

  const refusals = groups.map((): Refusals => ({}));
  const candidates = groups.map((group, index) => groupCandidates(room, group, index, request, random, refusals[index]!));
  // Greedy: each group's best pose that overlaps nothing placed before it.
  const choice = candidates.map(() => -1);
  for (let g = 0; g < groups.length; g++) {
    const list = candidates[g]!;
    for (let k = 0; k < list.length; k++) {
      choice[g] = k;
      if (overlaps(candidates, choice, g) === 0) break;
      choice[g] = -1;
    }
  }
  let energy = energyOf(room, groups, candidates, choice);
  if (request.anneal) {
    const iterations = 300;
    let best = { choice: choice.slice(), energy };
    for (let step = 0; step < iterations; step++) {
      const temperature = 0.3 * Math.pow(0.01 / 0.3, step / iterations);
      const g = random.int(0, groups.length - 1);
      const list = candidates[g]!;
      if (list.length === 0) continue;
      const previous = choice[g]!;
      choice[g] = groups[g]!.optional && random.chance(0.1) ? -1 : random.int(0, list.length - 1);
      if (choice[g] === previous) continue;
      const next = energyOf(room, groups, candidates, choice);
      const hardBefore = Math.round(energy / HARD);
      const hardAfter = Math.round(next / HARD);
      const accept = hardAfter < hardBefore || (hardAfter === hardBefore && (next <= energy || random.next() < Math.exp((energy - next) / temperature)));
      if (accept) {
        energy = next;
        if (energy < best.energy) best = { choice: choice.slice(), energy };
      } else {
        choice[g] = previous;
      }
    }
    choice.splice(0, choice.length, ...best.choice);
  }
  leaveOutWhatBreaksRules(room, groups, candidates, choice);

  const pieces: PlannedPiece[] = [];
  const missing: PlanShortfall[] = [];
  groups.forEach((group, g) => {
    const k = choice[g]!;
    if (k < 0) {
      const why =
        candidates[g]!.length === 0
          ? noSpotReason('it', refusals[g]!, request.mask !== undefined)
          : whyLeftOut(room, groups, candidates, choice, g);
      missing.push({ group: group.name, furnitureId: group.anchor, reason: why });
      for (const member of group.members) missing.push({ group: group.name, furnitureId: member.furnitureId, reason: 'its group was left out' });
      return;
    }
    const candidate = candidates[g]![k]!;
    pieces.push(...candidate.pieces);
    missing.push(...candidate.dropped);
  });
  // A required group left out is refused with why: the rule that turned down its every pose, or the pieces before it.
  const violations = violationsOf(room, groups, candidates, choice, (group) => missing.find((m) => m.group === group.name && m.furnitureId === group.anchor)?.reason);
  const footprints = pieces.filter((p) => !isFlat(p.piece.footprint)).map((p) => ({ corners: base(p.placement) }));
  return {
    roomId: request.roomId,
    pieces,
    missing,
    violations,
    completeness: asked === 0 ? 1 : new Set(pieces.map((p) => `${p.group}/${p.entry}`)).size / asked,
    score: choice.reduce((sum, k, g) => sum + (k >= 0 ? candidates[g]![k]!.score : 0), 0),
    mainWalkway: checkWalkway(room, footprints, MAIN_WALKWAY_M, PLAN_NEAREST_M).connected,
    milliseconds: Math.round(performance.now() - started),
  };
}

function base(placement: Placement): [number, number][] {
  return placement.corners.slice(0, 4).map((c) => [c[0], c[1]] as [number, number]);
}

// ---------------------------------------------------------------------------------------------------------------
// One group's poses.

/**
 * The group's poses with its anchor, or, where that fits nowhere, with the first alternative that does; `refusals`
 * counts the hard rules that turned poses down.
 */
function groupCandidates(room: RoomModel, group: ProgrammeGroup, index: number, request: PlanRequest, random: Random, refusals: Refusals): GroupCandidate[] {
  for (const anchorId of [group.anchor, ...(group.alternatives ?? [])]) {
    const found = groupCandidatesWith(room, group, anchorId, index, request, random, refusals);
    if (found.length > 0) return found;
  }
  return [];
}

function groupCandidatesWith(
  room: RoomModel,
  group: ProgrammeGroup,
  anchorId: string,
  index: number,
  request: PlanRequest,
  random: Random,
  refusals: Refusals,
): GroupCandidate[] {
  const seedOf = (slot: string) => new Random(request.seed).fork(`${request.roomId}/${index}/${slot}`).int(0, 2 ** 31 - 1);
  const anchor = samplePiece(anchorId, request.styleId, seedOf('anchor'));
  const members = group.members.map((member, m) => {
    // A rug reaches under the group; art and a coffee table keep to their share of the anchor's width.
    const limits = member.relation.kind === 'under' ? rugLimits(anchor.footprint, group) : member.widthShare !== undefined ? { maxWidth: anchor.footprint.width * member.widthShare } : undefined;
    const piece = samplePiece(member.furnitureId, request.styleId, seedOf(`member${m}`), limits);
    return { member, piece, rules: { ...request, footprint: piece.footprint } };
  });
  const anchorRules = { ...request, footprint: anchor.footprint };
  const out: GroupCandidate[] = [];
  for (const pose0 of anchorPoses(room, anchor.footprint, group.place)) {
    const anchorPlacement = pose(room, anchor.footprint, pose0, 0);
    const anchorProblem = brokenRule(room, anchorRules, anchorPlacement, ROOM_PIECE_RULES);
    countRefusal(refusals, anchorProblem);
    if (anchorProblem) continue;
    const clearances = group.bedSides ? bedSideClearances(room, anchor.footprint, anchorPlacement) : [];
    if (!clearances) {
      countRefusal(refusals, 'room');
      continue;
    }
    const pieces: PlannedPiece[] = [{ group: group.name, entry: 0, furnitureId: anchorId, piece: anchor, placement: anchorPlacement }];
    const dropped: PlanShortfall[] = [];
    let failed = false;
    let frontPlacement: Placement | undefined;
    let frontFootprint: Footprint | undefined;
    for (const [m, { member, piece, rules }] of members.entries()) {
      const placements = memberPlacements(room, member, piece.footprint, anchor.footprint, anchorPlacement, frontPlacement, frontFootprint);
      const piecesBefore = pieces.length;
      const clearancesBefore = clearances.length;
      let kept = 0;
      for (const placement of placements) {
        const problem = brokenRule(room, rules, placement, ROOM_PIECE_RULES);
        countRefusal(refusals, problem);
        // Chairs tuck under their table or desk; everything else in a group keeps clear of the rest of it.
        const tucked = member.relation.kind === 'around' || (member.relation.kind === 'front' && member.relation.gap < 0);
        const clash = !isFlat(piece.footprint) && !tucked && pieces.some((p) => !isFlat(p.piece.footprint) && footprintsOverlap(p.placement, placement, 0.01));
        if (problem || clash) continue;
        if (member.relation.kind === 'above' && piece.footprint.elevation < anchor.footprint.elevation + anchor.footprint.height + ART_CLEARANCE_M) continue;
        if (member.relation.kind === 'around') {
          const pullOut = localRectangle(placement, -piece.footprint.width / 2, piece.footprint.width / 2, -(piece.footprint.depth / 2 - CHAIR_TUCK_M), CHAIR_PULL_OUT_M - (piece.footprint.depth / 2 - CHAIR_TUCK_M));
          if (!onOpenFloor(room, pullOut)) continue;
          clearances.push(pullOut);
        }
        pieces.push({ group: group.name, entry: m + 1, furnitureId: member.furnitureId, piece, placement });
        kept++;
        if (member.relation.kind === 'front') {
          frontPlacement = placement;
          frontFootprint = piece.footprint;
        }
      }
      const needed = member.relation.kind === 'around' ? MIN_CHAIRS_AROUND : 1;
      if (kept < needed && placements.length > 0) {
        if (!member.optional) {
          failed = true;
          break;
        }
        // An optional member left out is left out whole: no lone chair, and none of its clearances.
        pieces.length = piecesBefore;
        clearances.length = clearancesBefore;
        dropped.push({ group: group.name, furnitureId: member.furnitureId, reason: 'no room for it beside its group' });
      }
    }
    if (failed) continue;
    const score = pieces.reduce((s, p) => s + pieceScore(room, p.piece.footprint, p.placement), 0) / pieces.length + 0.2 * (pieces.length - 1) + (pose0.bonus ?? 0) + 0.02 * random.next();
    out.push({ pieces, clearances, dropped, score });
  }
  out.sort((a, b) => b.score - a.score);
  const kept = spreadOut(out);
  // For variety between seeds, shuffle the order of near-equals among the first few.
  for (let i = 0; i + 1 < Math.min(kept.length, 4); i++) {
    const j = random.int(i, Math.min(kept.length, 4) - 1);
    if (kept[0]!.score - kept[j]!.score < 0.15) [kept[i], kept[j]] = [kept[j]!, kept[i]!];
  }
  return kept;
}

/**
 * The best CANDIDATES_PER_GROUP poses, spread over the room: the best pose first, then each next-best one at least
 * CANDIDATE_SPACING_M from every kept pose (or turned to another wall). The best poses of a group crowd into one
 * spot (the middle of the photo); when a larger group takes that spot, a list of near-copies leaves the group no
 * place at all, where a spread list still has one elsewhere. Poses turned down by the spacing fill the list last.
 */
function spreadOut(sorted: GroupCandidate[]): GroupCandidate[] {
  const kept: GroupCandidate[] = [];
  const skipped: GroupCandidate[] = [];
  for (const candidate of sorted) {
    if (kept.length === CANDIDATES_PER_GROUP) break;
    const anchor = candidate.pieces[0]!.placement;
    const near = kept.some((k) => {
      const other = k.pieces[0]!.placement;
      return other.against === anchor.against && Math.abs(other.yaw - anchor.yaw) < 1e-6 && Math.hypot(other.x - anchor.x, other.y - anchor.y) < CANDIDATE_SPACING_M;
    });
    (near ? skipped : kept).push(candidate);
  }
  return kept.concat(skipped.slice(0, CANDIDATES_PER_GROUP - kept.length));
}

/**
 * The strips beside a bed kept clear to make it and get in (BED_SIDE_M wide, from its foot to where the nightstands
 * stand at its head): both sides of a double bed, at least one of a single bed (against a wall in a child's room).
 * Undefined when the room does not leave them.
 */
function bedSideClearances(room: RoomModel, bed: Footprint, placement: Placement): [number, number][][] | undefined {
  const y0 = -bed.depth / 2;
  const y1 = bed.depth / 2 - NIGHTSTAND_DEPTH_M;
  const sides = [localRectangle(placement, bed.width / 2, bed.width / 2 + BED_SIDE_M, y0, y1), localRectangle(placement, -bed.width / 2 - BED_SIDE_M, -bed.width / 2, y0, y1)];
  const open = sides.filter((side) => onOpenFloor(room, side));
  const needed = bed.width >= DOUBLE_BED_WIDTH_M ? 2 : 1;
  return open.length >= needed ? open : undefined;
}

/** A rectangle of a piece's own frame (x to its right, −y before its front) on the world floor. */
function localRectangle(placement: Placement, x0: number, x1: number, y0: number, y1: number): [number, number][] {
  const c = Math.cos(placement.yaw);
  const s = Math.sin(placement.yaw);
  return ([[x0, y0], [x1, y0], [x1, y1], [x0, y1]] as const).map(([lx, ly]) => [placement.x + c * lx - s * ly, placement.y + s * lx + c * ly] as [number, number]);
}

/** Whether floor lies inside the room's walls and off its blocks (the camera's side of the box is open floor). */
function onOpenFloor(room: RoomModel, outline: [number, number][]): boolean {
  const { left, right, front } = room.box;
  if (outline.some(([x, y]) => x < left - 1e-6 || x > right + 1e-6 || y > front + 1e-6)) return false;
  return !room.blocks.some((block) => convexOverlap(outline, blockOutline(block)));
}

/** A rug under a group: a little wider than the anchor, reaching under the front member. */
function rugLimits(anchor: Footprint, group: ProgrammeGroup): { maxWidth: number; maxDepth: number } {
  const front = group.members.find((m) => m.relation.kind === 'front');
  const depth = anchor.depth + (front && front.relation.kind === 'front' ? front.relation.gap + 0.8 : 0.6);
  return { maxWidth: Math.max(1.2, anchor.width + 0.4), maxDepth: Math.max(1.2, depth) };
}

interface AnchorPose {
  x: number;
  y: number;
  yaw: number;
  against?: WallLabel;
  /** Added to the pose's score (a corner piece near a corner). */
  bonus?: number;
}

/** A corner piece's score bonus at a corner of the room, fading to none CORNER_REACH_M along the wall. */
const CORNER_BONUS = 0.3;
const CORNER_REACH_M = 0.6;

/** Free poses tried per group at most: a large room gets a coarser grid, so a plan's time does not grow with its area. */
const MAX_FREE_POSES = 2500;

function anchorPoses(room: RoomModel, footprint: Footprint, place: ProgrammeGroup['place']): AnchorPose[] {
  const { left, right, front } = room.box;
  const out: AnchorPose[] = [];
  const w = footprint.width;
  const d = footprint.depth;
  if (place === 'free') {
    const area = Math.max(0, right - left - 0.6 - w) * Math.max(0, front - 0.3 - PLAN_NEAREST_M - d);
    const step = Math.max(GRID_STEP_M, Math.sqrt((2 * area) / MAX_FREE_POSES));
    for (let x = left + 0.3 + w / 2; x <= right - 0.3 - w / 2 + 1e-9; x += step) {
      for (let y = PLAN_NEAREST_M + d / 2; y <= front - 0.3 - d / 2 + 1e-9; y += step) {
        out.push({ x, y, yaw: 0 });
        if (Math.abs(w - d) > 0.2) out.push({ x, y, yaw: Math.PI / 2 });
      }
    }
    return out;
  }
  const gap = wallGap(footprint);
  for (const run of wallRuns(room)) {
    const poses: AnchorPose[] = [];
    if (run.wall === 'wall-front') {
      const y = run.at - gap - d / 2;
      for (let x = run.u0 + gap + w / 2; x <= run.u1 - gap - w / 2 + 1e-9; x += GRID_STEP_M) poses.push({ x, y, yaw: 0, against: run.wall });
    } else {
      const xc = run.wall === 'wall-left' ? run.at + gap + d / 2 : run.at - gap - d / 2;
      const yaw = run.wall === 'wall-left' ? Math.PI / 2 : -Math.PI / 2;
      for (let y = Math.max(PLAN_NEAREST_M, run.u0 + gap) + w / 2; y <= run.u1 - gap - w / 2 + 1e-9; y += GRID_STEP_M) poses.push({ x: xc, y, yaw, against: run.wall });
    }
    if (place === 'corner') {
      // A corner piece may stand anywhere along its wall (beside a sofa, between two windows), the nearer a corner of
      // the room the better: limited to the walls' two ends, a lamp and a plant competed for the same few spots.
      for (const p of poses) {
        const along = run.wall === 'wall-front' ? Math.min(p.x - run.u0, run.u1 - p.x) - w / 2 : run.u1 - p.y - w / 2;
        p.bonus = CORNER_BONUS * Math.max(0, 1 - (along - gap) / CORNER_REACH_M);
      }
    }
    out.push(...poses);
  }
  return out;
}

/**
 * The stretches of wall a piece may stand against: each visible wall of the box whole (where a block covers part of
 * one, the rules turn those poses down) and each face of a block toward the room; `at` is the wall's plane (y of a
 * front wall, x of a side wall), `u0`–`u1` its extent along it.
 */
function wallRuns(room: RoomModel): { wall: WallLabel; at: number; u0: number; u1: number }[] {
  const { left, right, front } = room.box;
  const runs = [...room.visibleWalls].map((wall) =>
    wall === 'wall-front' ? { wall, at: front, u0: left, u1: right } : { wall, at: wall === 'wall-left' ? left : right, u0: -Infinity, u1: front },
  );
  return runs.concat(room.blocks.flatMap((block) => blockFaces(room, block)));
}

/** Placements of a member relative to its anchor (the anchor frame: x to the anchor's right, −y before its front). */
function memberPlacements(
  room: RoomModel,
  member: ProgrammeMember,
  footprint: Footprint,
  anchor: Footprint,
  anchorPlacement: Placement,
  frontPlacement: Placement | undefined,
  frontFootprint: Footprint | undefined,
): Placement[] {
  const at = (lx: number, ly: number, turn: number, from: Placement = anchorPlacement) => {
    const c = Math.cos(from.yaw);
    const s = Math.sin(from.yaw);
    return pose(room, footprint, { x: from.x + c * lx - s * ly, y: from.y + s * lx + c * ly, yaw: from.yaw + turn }, 0);
  };
  const relation = member.relation;
  switch (relation.kind) {
    case 'front':
      return [at(0, -(anchor.depth / 2 + relation.gap + footprint.depth / 2), relation.facing === 'anchor' ? Math.PI : 0)];
    case 'beside': {
      const sign = relation.side === 'right' ? 1 : -1;
      return [at(sign * (anchor.width / 2 + relation.gap + footprint.width / 2), anchor.depth / 2 - footprint.depth / 2, 0)];
    }
    case 'flank': {
      if (!frontPlacement || !frontFootprint) return [];
      const sign = relation.side === 'right' ? 1 : -1;
      // Turned a quarter so its front faces the table: on the table's right it looks left, and the other way.
      return [at(sign * (frontFootprint.width / 2 + relation.gap + footprint.depth / 2), 0, sign > 0 ? -Math.PI / 2 : Math.PI / 2, frontPlacement)];
    }
    case 'around': {
      const tuck = CHAIR_TUCK_M;
      const perSide = Math.max(1, Math.floor(anchor.width / 0.6));
      const out: Placement[] = [];
      for (let k = 0; k < perSide; k++) {
        const lx = -anchor.width / 2 + (anchor.width / perSide) * (k + 0.5);
        out.push(at(lx, -(anchor.depth / 2 + footprint.depth / 2 - tuck), Math.PI));
        out.push(at(lx, anchor.depth / 2 + footprint.depth / 2 - tuck, 0));
      }
      if (anchor.width >= 1.6) {
        out.push(at(anchor.width / 2 + footprint.depth / 2 - tuck, 0, -Math.PI / 2));
        out.push(at(-(anchor.width / 2 + footprint.depth / 2 - tuck), 0, Math.PI / 2));
      }
      return out;
    }
    case 'above':
      // Against the wall the anchor's back stands against: only a wall piece has one.
      if (!anchorPlacement.against) return [];
      return [{ ...at(0, anchor.depth / 2 + WALL_GAP_M - ON_WALL_GAP_M - footprint.depth / 2, 0), against: anchorPlacement.against }];
    case 'under': {
      // Under the front legs of the anchor and its front member (the coffee table), or under a bed's lower part.
      return [at(0, frontPlacement ? -(anchor.depth / 2 + 0.3) : -0.2 * anchor.depth, 0)];
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Rules between pieces, scores and the plan's energy.

/** Whether two footprints (convex quadrilaterals on the floor) come closer than `gap` metres. */
function footprintsOverlap(a: Placement, b: Placement, gap: number): boolean {
  return convexOverlap(base(a), base(b), gap);
}

/** Higher is better: seen whole and near the photo's middle, at a comfortable depth, a wall piece centred on its wall. */
function pieceScore(room: RoomModel, footprint: Footprint, placement: Placement): number {
  const { width } = room.camera;
  const projected = placement.corners.map((p) => projectWorld(room.camera, p)).filter((p): p is [number, number] => p !== undefined);
  if (projected.length === 0) return -2;
  const xs = projected.map((p) => p[0]);
  const cut = (Math.max(0, -Math.min(...xs)) + Math.max(0, Math.max(...xs) - width)) / width;
  const centre = (Math.min(...xs) + Math.max(...xs)) / 2;
  let s = -2 * cut - 0.5 * Math.abs(centre - width / 2) / width;
  const depthRange = room.box.front - PLAN_NEAREST_M;
  if (depthRange > 0) s -= 0.4 * Math.abs((placement.y - PLAN_NEAREST_M) / depthRange - 0.5);
  if (placement.against === 'wall-front') s += 0.1;
  if (footprint.placement !== 'floor' && !placement.against) s -= 0.5;
  return s;
}

function overlaps(candidates: GroupCandidate[][], choice: number[], upTo = choice.length - 1): number {
  let count = 0;
  const chosen = choice.map((k, g) => (k >= 0 && g <= upTo ? candidates[g]![k]! : undefined));
  for (let g = 0; g < chosen.length; g++) {
    const a = chosen[g];
    if (!a) continue;
    for (let h = g + 1; h < chosen.length; h++) {
      const b = chosen[h];
      if (!b) continue;
      for (const p of a.pieces) {
        if (isFlat(p.piece.footprint)) continue;
        for (const q of b.pieces) {
          if (isFlat(q.piece.footprint)) continue;
          if (footprintsOverlap(p.placement, q.placement, PIECE_GAP_M)) count++;
        }
      }
      // One group's pieces on the floor another keeps clear (a chest of drawers beside the bed).
      for (const [one, other] of [[a, b], [b, a]] as const) {
        for (const clearance of one.clearances) {
          for (const q of other.pieces) if (!isFlat(q.piece.footprint) && convexOverlap(clearance, base(q.placement))) count++;
        }
      }
    }
  }
  return count;
}

interface HardCount {
  clashes: number;
  cutOffDoors: number;
  unplaced: ProgrammeGroup[];
}

function hardCount(room: RoomModel, groups: ProgrammeGroup[], candidates: GroupCandidate[][], choice: number[]): HardCount {
  const footprints = choice.flatMap((k, g) => (k >= 0 ? candidates[g]![k]!.pieces : [])).filter((p) => !isFlat(p.piece.footprint)).map((p) => ({ corners: base(p.placement) }));
  return {
    clashes: overlaps(candidates, choice),
    cutOffDoors: checkWalkway(room, footprints, WALKWAY_M, PLAN_NEAREST_M).unreachableDoors.length,
    unplaced: groups.filter((group, g) => !group.optional && choice[g]! < 0),
  };
}

/**
 * Where the search still ends with pieces overlapping or a door cut off, the groups are left out one at a time, the
 * latest placed (decor) first, keeping each removal that lowers the count, until none is left: an incomplete plan is
 * reported as such, a blocked door is a defect.
 */
function leaveOutWhatBreaksRules(room: RoomModel, groups: ProgrammeGroup[], candidates: GroupCandidate[][], choice: number[]): void {
  const defects = () => {
    const hard = hardCount(room, groups, candidates, choice);
    return hard.clashes + hard.cutOffDoors;
  };
  let count = defects();
  for (let g = groups.length - 1; g >= 0 && count > 0; g--) {
    const kept = choice[g]!;
    if (kept < 0) continue;
    choice[g] = -1;
    const after = defects();
    if (after < count) count = after;
    else choice[g] = kept;
  }
}

function violationsOf(room: RoomModel, groups: ProgrammeGroup[], candidates: GroupCandidate[][], choice: number[], why: (group: ProgrammeGroup) => string | undefined): string[] {
  const hard = hardCount(room, groups, candidates, choice);
  const out: string[] = [];
  if (hard.clashes > 0) out.push(`${hard.clashes} pair(s) of pieces overlap`);
  if (hard.cutOffDoors > 0) out.push(`${hard.cutOffDoors} door(s) cut off from the camera's side of the room`);
  for (const group of hard.unplaced) {
    const reason = why(group);
    const pieces = [group.anchor, ...(group.alternatives ?? [])].join(' or ');
    out.push(`the ${group.name} (${pieces}) group has no place${reason ? `, since ${reason}` : ''}`);
  }
  return out;
}

function energyOf(room: RoomModel, groups: ProgrammeGroup[], candidates: GroupCandidate[][], choice: number[]): number {
  const hard = hardCount(room, groups, candidates, choice);
  let score = 0;
  choice.forEach((k, g) => {
    if (k >= 0) score += candidates[g]![k]!.score + 1;
  });
  // Overlaps and cut-off doors are defects; a required group left out is only an incomplete plan, reported as such.
  return HARD * (3 * (hard.clashes + hard.cutOffDoors) + hard.unplaced.length) - score + HIDDEN_WEIGHT * hiddenExcess(chosenPieces(candidates, choice));
}

/**
 * Why group `g`, which has poses, was left out: every pose adds an overlap or cuts off a door among the pieces chosen;
 * or the search missed a pose that was free and worth placing (the only honest reason for a required group, whose
 * placing always pays); or where it fits, it would be hidden behind nearer pieces, or hide a piece behind it, more
 * than half (the plan would lose by placing it, though its pose alone is worth it); or where it fits, the photo would
 * show it poorly (its pose's score outweighs placing it).
 */
function whyLeftOut(room: RoomModel, groups: ProgrammeGroup[], candidates: GroupCandidate[][], choice: number[], g: number): string {
  const defects = (c: number[]) => {
    const hard = hardCount(room, groups, candidates, c);
    return hard.clashes + hard.cutOffDoors;
  };
  const before = defects(choice);
  const hiddenBefore = hiddenExcess(chosenPieces(candidates, choice));
  const trial = choice.slice();
  const fitting = candidates[g]!.flatMap((candidate, k) => {
    trial[g] = k;
    if (defects(trial) > before) return [];
    const pieces = chosenPieces(candidates, trial);
    const excesses = hiddenExcesses(pieces);
    const total = excesses.reduce((sum, e) => sum + e, 0);
    const own = excesses.reduce((sum, e, i) => sum + (pieces[i]!.group === g ? e : 0), 0);
    return [{ worth: candidate.score + 1, hidden: HIDDEN_WEIGHT * (total - hiddenBefore), own: HIDDEN_WEIGHT * own }];
  });
  if (fitting.length === 0) return 'it would stand in the way of the pieces placed before it';
  if (groups[g]!.optional !== true || fitting.some((f) => f.worth > f.hidden)) return 'the search did not reach a free place it has (another seed may place it)';
  const worthy = fitting.filter((f) => f.worth > 0);
  if (worthy.length === 0) return 'wherever it fits, the photo would show it poorly (cut by the frame or far to a side)';
  return worthy.some((f) => f.own >= f.hidden - f.own)
    ? 'wherever it fits, the pieces nearer the camera would hide more than half of it'
    : 'wherever it fits, it would hide more than half of a piece behind it';
}

function chosenPieces(candidates: GroupCandidate[][], choice: number[]): SeenPiece[] {
  return choice.flatMap((k, g) =>
    k >= 0 ? candidates[g]![k]!.pieces.map((p) => ({ group: g, placement: p.placement, flat: isFlat(p.piece.footprint), onWall: p.piece.footprint.placement === 'on-wall' })) : [],
  );
}

/** A placed piece as hiddenExcess sees it. */
interface SeenPiece {
  group: number;
  placement: Placement;
  /** Rugs: they hide nothing and are meant to lie under other pieces. */
  flat: boolean;
  /** Hung on a wall (art): flush with it, it is never in front of a standing piece. */
  onWall: boolean;
}

/**
 * Summed over the pieces that are not flat, the share of each one's image box covered by the image boxes of nearer
 * standing pieces of other groups (nearer: the footprint's centre closer to the camera, which stands at the world's
 * origin), beyond HIDDEN_ALLOWED. Pieces of one group are arranged to overlap (a coffee table before its sofa); rugs
 * and hung art hide nothing. The covers are summed, so two overlapping ones count twice: a slight overestimate, on the
 * safe side.
 */
function hiddenExcess(pieces: readonly SeenPiece[]): number {
  return hiddenExcesses(pieces).reduce((sum, excess) => sum + excess, 0);
}

/** hiddenExcess piece by piece (0 for flat pieces). */
function hiddenExcesses(pieces: readonly SeenPiece[]): number[] {
  const standing = pieces.filter((p) => !p.flat && !p.onWall);
  return pieces.map((p) => {
    const box = p.placement.imageBox;
    const area = (box.x1 - box.x0) * (box.y1 - box.y0);
    if (p.flat || area <= 0) return 0;
    const distance = Math.hypot(p.placement.x, p.placement.y);
    let covered = 0;
    for (const q of standing) {
      if (q.group === p.group || Math.hypot(q.placement.x, q.placement.y) >= distance) continue;
      const other = q.placement.imageBox;
      const w = Math.min(box.x1, other.x1) - Math.max(box.x0, other.x0);
      const h = Math.min(box.y1, other.y1) - Math.max(box.y0, other.y0);
      if (w > 0 && h > 0) covered += w * h;
    }
    return Math.max(0, Math.min(1, covered / area) - HIDDEN_ALLOWED);
  });
}
