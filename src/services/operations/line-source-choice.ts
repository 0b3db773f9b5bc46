import { missingForFallback } from './model-policy.js';
import { analyzeRoom, type NetworkUse, type RoomAnalysis } from '../geometry/analyze-room.js';
import { unsureLayout } from '../geometry/layout-trust.js';
import { ROOM_NETWORK_MODEL, roomNetworkSource, type SegmentationSource } from '../geometry/room-network.js';
import { lsdLineSource, mlsdLineSource, MLSD_INPUT_SIZE, MLSD_MODEL, type LineSource, type TensorModel } from '../geometry/line-sources.js';
import type { RawImage } from '../../vision/raw-image.js';

/** What the choice needs of the models: the service's ImageModels and the CLI's ModelRuntime both have it. */
export interface LineModels {
  isInstalled(name: string): Promise<boolean>;
  detectorSession(name: string): Promise<TensorModel>;
}

export interface ChosenLines {
  /** Structural lines for the layout. */
  layout: LineSource;
  /** Extra lines for the vanishing points only. */
  vanishingPoints?: LineSource;
  /** What a report calls the choice, e.g. `mlsd-512-large+lsd`. */
  name: string;
  /** Whether M-LSD is in it (it is not installed otherwise). */
  mlsd: boolean;
  /**
   * Our room network: its windows and doors join those the lines find (analyzeRoom's `networkUse: ['openings']`),
   * what it sees standing on the floor is reported (`standing`), and its layout is the second opinion where an
   * operation doubts the lines' and trusts its own (analyzeWithSecondOpinion). Absent where the operation did not ask
   * for it.
   */
  roomNetwork?: SegmentationSource;
}

export interface LineChoiceOptions {
  /** LSD's many precise edges for the vanishing points besides M-LSD's. Default true. */
  lsdForVanishingPoints?: boolean;
  /** The room network besides the lines (ChosenLines.roomNetwork). Default false. */
  roomNetwork?: boolean;
}

/**
 * M-LSD for the layout when installed, with LSD's many precise edges for the vanishing points (they sharpen the
 * focal length where M-LSD's structural lines are few) unless `lsdForVanishingPoints` is false; LSD alone otherwise.
 * With `roomNetwork`, the room network too (it ships in the repository; without its file the lines' openings
 * alone are a fallback like LSD alone).
 */
export async function chooseLineSources(models: LineModels, options: LineChoiceOptions = {}): Promise<ChosenLines> {
  // In the service, LSD alone is a fallback: a 503 unless the operator allows fallbacks (./model-policy.ts).
  const lsdAlone = (await missingForFallback(models, [MLSD_MODEL], 'lsd')).length > 0;
  const network = options.roomNetwork ? await roomNetworkOf(models) : {};
  if (lsdAlone) return { layout: lsdLineSource(), name: 'lsd', mlsd: false, ...network };
  const layout = mlsdLineSource(await models.detectorSession(MLSD_MODEL), { inputSize: MLSD_INPUT_SIZE });
  if (options.lsdForVanishingPoints === false) return { layout, name: MLSD_MODEL, mlsd: true, ...network };
  return { layout, vanishingPoints: lsdLineSource(), name: `${MLSD_MODEL}+lsd`, mlsd: true, ...network };
}

/** The same lines without the room network: for the steps measured on the lines alone (a redesign's removal and paint). */
export function withoutRoomNetwork(lines: ChosenLines): ChosenLines {
  const { roomNetwork, ...alone } = lines;
  return alone;
}

async function roomNetworkOf(models: LineModels): Promise<{ roomNetwork?: SegmentationSource }> {
  if ((await missingForFallback(models, [ROOM_NETWORK_MODEL], 'the lines alone')).length > 0) return {};
  return { roomNetwork: roomNetworkSource(await models.detectorSession(ROOM_NETWORK_MODEL)) };
}

/**
 * The room analysis of a photo with the chosen lines, as the operations run it: the layout is the lines'; where the
 * room network was chosen, its openings join theirs and what it sees standing on the floor is reported. The report
 * names the lines where their name is given.
 */
export function analyzeWithLines(image: RawImage, lines: AnalysisLines, signal?: AbortSignal): Promise<RoomAnalysis> {
  return analyze(image, lines, ['openings', 'standing'], signal);
}

/** Why an operation would not build on an analysis's layout, in a sentence; undefined where it would. */
export type LayoutDoubt = (analysis: RoomAnalysis) => string | undefined;

export interface SecondOpinion {
  analysis: RoomAnalysis;
  /** Where the network's layout was taken: why the lines' was set aside. */
  linesDoubt?: string;
}

/**
 * analyzeWithLines, and where `doubt` sets the lines' layout aside and the room network was chosen, the box fitted to
 * the network's layout map instead when `doubt` accepts that one. The lines stay first: on the 25 hand-drawn photos
 * they are right more often (docs/models/room-understanding.md), but where they fail they mostly fail in ways the
 * operations' own checks catch (a wall put before the camera: no floor below the horizon), and there the network's
 * box is often better (empty_bedroom_04: layout error 21.7 → 5.8 %). The network's box must also be one the refresh
 * would trust (unsureLayout's confidence of 0.6, where the lines' need only pass `doubt`): what replaces a doubted
 * layout clears a higher bar than the one it replaces. Seen on empty_bedroom_01: a network box at 0.53, with a small
 * drawn layout error (5.2 %), made the closet wall and the window wall one wall 16 m away, and the staged bed stood
 * before the doorway the frame cuts. Where the network's box falls short, the lines' analysis is kept, for the
 * operation to refuse as before. The second analysis reuses the first one's lines and network maps: only the box fit
 * and what follows it run again.
 */
export async function analyzeWithSecondOpinion(image: RawImage, lines: AnalysisLines, doubt: LayoutDoubt, signal?: AbortSignal): Promise<SecondOpinion> {
  const once = answeringOncePerPhoto(lines);
  const analysis = await analyzeWithLines(image, once, signal);
  const linesDoubt = doubt(analysis);
  if (!linesDoubt || !once.roomNetwork) return { analysis };
  const network = await analyze(image, once, ['layout', 'openings', 'standing'], signal);
  return doubt(network) || unsureLayout(network) ? { analysis } : { analysis: network, linesDoubt };
}

/**
 * The same lines (and network), each answering again from its last answer when given the same photo: for analyses of
 * one photo run one after another (the two opinions; a redesign's removal, then its furniture).
 */
export function answeringOncePerPhoto<T extends AnalysisLines>(lines: T): T {
  return {
    ...lines,
    layout: lastInputKept(lines.layout),
    ...(lines.vanishingPoints ? { vanishingPoints: lastInputKept(lines.vanishingPoints) } : {}),
    ...(lines.roomNetwork ? { roomNetwork: lastInputKept(lines.roomNetwork) } : {}),
  };
}

/**
 * `source` answering again from its last answer when given the same pixels (both analyses of one photo make the same
 * working copy); any other image runs it.
 */
function lastInputKept<T>(source: (image: RawImage) => Promise<T>): (image: RawImage) => Promise<T> {
  let last: { image: RawImage; answer: Promise<T> } | undefined;
  return (image) => {
    if (last && samePixels(last.image, image)) return last.answer;
    const answer = source(image);
    last = { image, answer };
    return answer;
  };
}

function samePixels(a: RawImage, b: RawImage): boolean {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}

type AnalysisLines = Pick<ChosenLines, 'layout' | 'vanishingPoints' | 'roomNetwork'> & { name?: string };

function analyze(image: RawImage, lines: AnalysisLines, networkUse: readonly NetworkUse[], signal?: AbortSignal): Promise<RoomAnalysis> {
  return analyzeRoom(image, lines.layout, {
    ...(lines.vanishingPoints ? { vanishingPointLines: lines.vanishingPoints } : {}),
    ...(lines.roomNetwork ? { segmentation: lines.roomNetwork, networkUse } : {}),
    ...(lines.name ? { lineSourceName: lines.name } : {}),
    ...(signal ? { signal } : {}),
  });
}
