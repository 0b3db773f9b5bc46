import fs from 'node:fs/promises';
import os from 'node:os';
import type { Config } from '../config/config.js';
import { decodeImage, writeImageWithOverlay } from '../repositories/image-codec.js';
import { ModelRegistry } from '../repositories/models/model-registry.js';
import { ModelRuntime } from '../repositories/models/model-runtime.js';
import { ModelStore } from '../repositories/models/model-store.js';
import { analyzeRoom, type AnalyzeRoomOptions, type RoomAnalysis } from '../services/geometry/analyze-room.js';
import { lsdLineSource, MLSD_MODEL, type LineSource } from '../services/geometry/line-sources.js';
import { overlaySvg } from '../services/geometry/overlay-svg.js';
import { chooseLineSources } from '../services/operations/line-source-choice.js';
import type { RawImage } from '../vision/raw-image.js';

export interface AnalyzePhotoOptions {
  /** Write an overlay image here (format from the extension: .png, .jpg, .webp). */
  out?: string;
  /** Print the analysis as JSON on stdout (the human summary goes to stderr then). */
  json?: boolean;
  /**
   * `auto` (default): M-LSD when installed, else the classical detector (LSD). `mlsd` insists on M-LSD; `lsd` uses
   * the classical detector alone.
   */
  lines?: 'auto' | 'mlsd' | 'lsd';
  /** With M-LSD, let LSD's segments join in for the vanishing points (sharper focal length). Default true. */
  lsdForVanishingPoints?: boolean;
  analysis?: AnalyzeRoomOptions;
}

/**
 * `roomcraft analyze PHOTO [--out overlay.png] [--json]`: camera, vanishing points, layout, openings and floor
 * plane of one room photo. Returns the exit code.
 */
export async function analyzePhoto(config: Config, file: string | undefined, options: AnalyzePhotoOptions = {}): Promise<number> {
  if (!file) {
    process.stderr.write('roomcraft: analyze needs a photo: roomcraft analyze PHOTO [--out overlay.png] [--json]\n');
    return 2;
  }
  const started = performance.now();
  let image: RawImage;
  try {
    const bytes = await fs.readFile(file);
    ({ image } = await decodeImage(bytes, { maxInputPixels: config.image.maxInputPixels }));
  } catch (error) {
    process.stderr.write(`roomcraft: ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const decoded = performance.now();

  const registry = ModelRegistry.load();
  // One photo, one process: the model may use every core (the service's workers use one thread each instead).
  const threads = Math.max(1, Math.min(4, os.availableParallelism()));
  const runtime = new ModelRuntime(new ModelStore(config.models.cacheDir, registry), registry, { intraOpNumThreads: threads });
  const summary = options.json ? process.stderr : process.stdout;
  try {
    const mode = options.lines ?? 'auto';
    let lines: LineSource = lsdLineSource();
    let lineSourceName = 'lsd';
    let vanishingPointLines: LineSource | undefined;
    let note = '';
    if (mode !== 'lsd') {
      const chosen = await chooseLineSources(runtime, { lsdForVanishingPoints: options.lsdForVanishingPoints ?? true });
      if (chosen.mlsd) {
        ({ layout: lines, vanishingPoints: vanishingPointLines, name: lineSourceName } = chosen);
      } else if (mode === 'mlsd') {
        process.stderr.write(`roomcraft: model ${MLSD_MODEL} is not installed; run \`roomcraft models install\`\n`);
        return 1;
      } else {
        note = ` (${MLSD_MODEL} not installed: \`roomcraft models install\`)`;
      }
    }
    summary.write(`Line segments: ${lineSourceName}${note}\n`);
    const analysis = await analyzeRoom(image, lines, {
      ...options.analysis,
      lineSourceName,
      ...(vanishingPointLines ? { vanishingPointLines } : {}),
    });
    const analysed = performance.now();
    if (options.out) {
      try {
        await writeOverlay(image, analysis, options.out);
      } catch (error) {
        process.stderr.write(`roomcraft: cannot write ${options.out}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
        return 1;
      }
    }
    if (options.json) process.stdout.write(`${JSON.stringify(analysis, null, 2)}\n`);
    summary.write(describe(analysis));
    summary.write(
      `Time: decode ${ms(decoded - started)}, analysis ${ms(analysed - decoded)} (${Object.entries(analysis.timings)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')} ms)${options.out ? `; overlay written to ${options.out}` : ''}\n`,
    );
    return 0;
  } finally {
    await runtime.close();
  }
}

/** The photo with overlaySvg composited over it. */
export async function writeOverlay(image: RawImage, analysis: RoomAnalysis, file: string): Promise<void> {
  await writeImageWithOverlay(image, overlaySvg(analysis), file);
}

function describe(a: RoomAnalysis): string {
  const c = a.camera;
  const vps = a.vanishingPoints
    .map((v) => `${v.axis}: ${v.point ? `(${v.point[0].toFixed(0)}, ${v.point[1].toFixed(0)})` : 'infinity'} ${v.segments} segments`)
    .join('; ');
  const faces = a.layout.faces.map((f) => `${f.label} ${(f.share * 100).toFixed(0)}%`).join(', ');
  const openings = a.openings.length ? a.openings.map((o) => `${o.kind} on ${o.wall} ${o.width.toFixed(2)}×${o.height.toFixed(2)} m`).join('; ') : 'none';
  const box = a.layout.box;
  // A side wall out of view has a position only because the box needs one: say so rather than print it.
  const seen = new Set(a.layout.faces.map((f) => f.label));
  const sideWall = (label: 'wall-left' | 'wall-right', x: number) =>
    seen.has(label) ? `${Math.abs(x).toFixed(2)} m to the ${label === 'wall-left' ? 'left' : 'right'}` : 'out of view';
  return [
    `Camera: focal ${c.focal.toFixed(0)} px (FOV ${c.fovHorizontal.toFixed(1)}°×${c.fovVertical.toFixed(1)}°, ${c.focalSource}), pitch ${c.pitch.toFixed(1)}°, roll ${c.roll.toFixed(1)}°, yaw ${c.yaw.toFixed(1)}°`,
    `Vanishing points: ${vps}; confidence ${a.confidence.vanishingPoints.toFixed(2)}`,
    `Layout: ${faces}; confidence ${a.confidence.layout.toFixed(2)}`,
    `Room (camera height ${a.floorPlane.cameraHeight.toFixed(2)} m, ${a.floorPlane.cameraHeightSource}): front wall ${box.front.toFixed(2)} m ahead, left wall ${sideWall('wall-left', box.left)}, right wall ${sideWall('wall-right', box.right)}, ceiling ${(box.ceiling - box.floor).toFixed(2)} m high`,
    `Openings: ${openings}`,
    '',
  ].join('\n');
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
