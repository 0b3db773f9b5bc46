/**
 * What a room's plans cover of the windows and doors drawn by hand: shared by the benches that compare planner rules
 * side by side (bench:door-frames, bench:wall-behind). No rendering: the plans are what the renderer would be given.
 */
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import type { RoomAnalysis } from '../src/services/geometry/analyze-room.js';
import { analyzeWithSecondOpinion, chooseLineSources } from '../src/services/operations/line-source-choice.js';
import { roomLayoutDoubt } from '../src/services/staging/stage-room.js';
import { planRoom, type PlanRequest } from '../src/staging/plan-room.js';
import { convexHull } from '../src/staging/placement-rules.js';
import { projectWorld, type RoomModel } from '../src/staging/room-model.js';
import { polygonMask } from '../src/vision/polygon-mask.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { drawnOpeningsMask } from './layout-scoring.js';
import { emptyRoomPhotos, readPhoto } from './shared-photos.js';

export const STYLES = ['scandinavian', 'japandi', 'industrial'];
export const SEEDS = [21, 22];
/** Pixels of drawn openings a piece's image must cover to count: a box's corner grazing a frame is not a piece before a door. */
export const COVERED_PIXELS = 300;

export interface Arm {
  plans: number;
  /** Plans with a piece or more and no rule broken. */
  made: number;
  /** Standing pieces placed (not rugs, not hung ones). */
  pieces: number;
  /** Standing pieces whose box, seen in the photo, covers more than COVERED_PIXELS of the drawn openings. */
  covering: number;
  coveredPixels: number;
}

export const NO_PLANS: Arm = { plans: 0, made: 0, pieces: 0, covering: 0, coveredPixels: 0 };

/** The two arms side by side, a Markdown table's rows: plans made, standing pieces, and what they cover. */
export function armRows(before: Arm, after: Arm): string[] {
  const row = (label: string, value: (arm: Arm) => string) => `| ${label} | ${value(before)} | ${value(after)} |`;
  return [
    row('Plans made', (arm) => `${arm.made} of ${arm.plans}`),
    row('Standing pieces placed', (arm) => `${arm.pieces}`),
    row('Pieces covering a drawn window or door', (arm) => `${arm.covering}`),
    row('Drawn window and door pixels under them', (arm) => `${arm.coveredPixels}`),
  ];
}

export function added(a: Arm, b: Arm): Arm {
  return { plans: a.plans + b.plans, made: a.made + b.made, pieces: a.pieces + b.pieces, covering: a.covering + b.covering, coveredPixels: a.coveredPixels + b.coveredPixels };
}

/**
 * The room planned in every style of STYLES and seed of SEEDS with preserveWindows, decor and annealing, as a
 * redesign plans it, and what the standing pieces of the plans made cover of `drawn` (photo-sized).
 */
export function planAndCount(room: RoomModel, roomId: string, drawn: Uint8Array, extra: Pick<PlanRequest, 'obstacles' | 'plainWall'>): Arm {
  const { width, height } = room.camera;
  const arm = { ...NO_PLANS };
  for (const styleId of STYLES) {
    for (const seed of SEEDS) {
      arm.plans++;
      const plan = planRoom(room, { roomId, styleId, seed, preserveWindows: true, decor: true, anneal: true, ...extra });
      if (plan.pieces.length === 0 || plan.violations.length > 0) continue;
      arm.made++;
      for (const { piece, placement } of plan.pieces) {
        if (piece.footprint.placement === 'on-wall' || piece.footprint.height < 0.05) continue;
        arm.pieces++;
        const hull = convexHull(placement.corners.map((c) => projectWorld(room.camera, c)).filter((p): p is [number, number] => p !== undefined));
        const mask = polygonMask(width, height, [hull]);
        let pixels = 0;
        for (let i = 0; i < mask.length; i++) if (mask[i] && drawn[i]) pixels++;
        if (pixels > COVERED_PIXELS) {
          arm.covering++;
          arm.coveredPixels += pixels;
        }
      }
    }
  }
  return arm;
}

export interface AnalysedPhoto {
  name: string;
  image: RawImage;
  analysis: RoomAnalysis;
  /** Why a whole-room staging would refuse this photo's layout (roomLayoutDoubt); the photo is not planned then. */
  doubt: string | undefined;
  /** The windows and doors drawn by hand, photo-sized. */
  drawn: Uint8Array;
}

/**
 * Every empty room photo of the shared set at 1024 px, analysed as a whole-room staging does (analyzeWithSecondOpinion
 * with roomLayoutDoubt; `fitToMap`: the box moved onto a sure map, as stageRoom asks), with the room networks.
 */
export async function* stagingAnalyses(options: { fitToMap: boolean }): AsyncGenerator<AnalysedPhoto> {
  const config = loadConfig(process.env);
  const registry = ModelRegistry.load();
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: 2 });
  try {
    const lines = await chooseLineSources(runtime, { roomNetwork: true });
    for (const file of emptyRoomPhotos()) {
      const name = path.basename(file);
      const image = await readPhoto(file, 1024);
      const { analysis } = await analyzeWithSecondOpinion(image, lines, roomLayoutDoubt, undefined, options);
      yield { name, image, analysis, doubt: roomLayoutDoubt(analysis), drawn: drawnOpeningsMask(name, image.width, image.height) };
    }
  } finally {
    await runtime.close();
  }
}
