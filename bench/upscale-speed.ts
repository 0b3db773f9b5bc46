/**
 * `npm run bench:upscale-speed`: output megapixels per second of every upscaling network of the registry on a 1 MP
 * photo, for our production path (onnxruntime-node through upscaleTiled, 1 intra-op thread; alone and as 2 jobs at
 * once in 2 worker threads, the shape of the job worker pool on 2 cores) and for UpscalerJS (the `upscaler` package
 * on TensorFlow.js's wasm backend) on the same weights and image; peak memory; multiply-adds per output pixel against
 * a measured matrix-multiply rate; and the end-to-end time of each endpoint's plan on a 1 MP input.
 *
 * Each run is its own child process, so its peak RSS is its own. The slow networks take minutes for the whole image,
 * so each run goes tile by tile until a time budget has passed, and throughput is the output pixels of the finished
 * tiles over the time they took. Writes the section `bench-upscale-speed` of docs/benchmarks.md.
 *
 *   npm run bench:upscale-speed [-- --budget=12] [--only=psnr-small,thick-x2] [--upscalerjs=all|priority|none] [--minutes=22]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { readTfjsLayersModel } from '../src/repositories/models/tfjs-layers-files.js';
import { backProject } from '../src/services/upscaling/back-projection.js';
import type { UpscalePlan } from '../src/services/upscaling/upscale-engine.js';
import { UPSCALE_ADVANCED_PLANS, UPSCALE_PLANS } from '../src/services/upscaling/upscale-plans.js';
import { DEFAULT_TILE_PADDING, DEFAULT_TILE_SIZE, upscaleTiled } from '../src/services/upscaling/tiled-upscale.js';
import { resizeLanczos3 } from '../src/vision/lanczos.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { machineLine, writeSection } from './report.js';
import {
  benchImage,
  cropCentre,
  loadAverage,
  macsPerOutputPixel,
  maxRssBytes,
  MODELS_DIR,
  PHOTO,
  PROBE_SIDE,
  probePath,
  SIDE,
  summarize,
  type RunResult,
  type TileDone,
} from './upscale-speed-common.js';
import { ROOT } from './shared-photos.js';
import type { JobStart } from './upscale-speed-job.js';
import { measureMatmul, MATMUL_N, type MatmulRate } from './upscale-speed-matmul.js';
import { epochMs, openSession, tileCount, timedTiledUpscale } from './upscale-speed-ours.js';
import { loadUpscalerJs, modelDefinition } from './upscale-speed-upscalerjs.js';

const SELF = path.join(ROOT, 'bench/upscale-speed.ts');
const JOBS = 2;
/** The window UpscalerJS is given: the same as ours (256 px windows, 16 px of context). */
const PATCH_SIZE = DEFAULT_TILE_SIZE;
const PATCH_PADDING = DEFAULT_TILE_PADDING;
/** UpscalerJS always runs on these, whatever the time: the production plans' network and one of each family. */
const UPSCALERJS_FIRST = ['esrgan-legacy-psnr-small', 'esrgan-thick-x2', 'esrgan-medium-x2', 'esrgan-slim-x2'];

type ChildSpec =
  | { mode: 'ours'; model: string; budget: number; probeDir: string }
  | { mode: 'jobs'; model: string; budget: number }
  | { mode: 'upscalerjs'; model: string; budget: number; probeDir: string }
  | { mode: 'matmul' }
  | { mode: 'plans'; mps: Record<string, number> };

interface UpscalerJsResult extends RunResult {
  /** Largest difference, in 8-bit levels, between its output and ours on the probe crop; null without ours. */
  probeMaxDiff: number | null;
  backend: string;
}

interface PlanTiming {
  endpoint: string;
  scale: number;
  networks: string;
  passOutputMp: number[];
  networkSeconds: number | null;
  lanczosSeconds: number;
  backProjectionSeconds: number;
  outputMp: number;
}

const { values: options } = parseArgs({
  options: {
    child: { type: 'string' },
    budget: { type: 'string', default: '12' },
    only: { type: 'string' },
    upscalerjs: { type: 'string', default: 'all' },
    minutes: { type: 'string', default: '22' },
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Children: one measurement each.

async function runChild(spec: ChildSpec): Promise<unknown> {
  switch (spec.mode) {
    case 'ours':
      return runOurs(spec.model, spec.budget, spec.probeDir);
    case 'jobs':
      return runJobs(spec.model, spec.budget);
    case 'upscalerjs':
      return runUpscalerJs(spec.model, spec.budget, spec.probeDir);
    case 'matmul':
      return [await measureMatmul(1, 4), await measureMatmul(2, 4)];
    case 'plans':
      return timePlans(spec.mps);
  }
}

async function runOurs(model: string, budget: number, probeDir: string): Promise<RunResult> {
  const image = await benchImage();
  const loading = performance.now();
  const { session, scale, runtime } = await openSession(model);
  const infer = (tile: Float32Array, h: number, w: number) => session.infer(tile, h, w);
  const warming = performance.now();
  const probe = await upscaleTiled(await cropCentre(image, PROBE_SIDE), infer, { scale });
  fs.writeFileSync(probePath(probeDir, model), probe.data);
  const origin = epochMs();
  const warmed = performance.now();
  const tiles = await timedTiledUpscale(image, infer, scale, origin, origin + budget * 1000);
  await runtime.close();
  return {
    tiles,
    seconds: summarize(tiles).seconds,
    loadSeconds: (warming - loading) / 1000,
    warmupSeconds: (warmed - warming) / 1000,
    maxRssBytes: maxRssBytes(),
    notes: [`${tiles.length}/${tileCount(image)} tiles`],
  };
}

/** 2 jobs at once: 2 worker threads, each with its own 1-thread session, each upscaling the whole image. */
async function runJobs(model: string, budget: number): Promise<RunResult> {
  const loading = performance.now();
  const workers = Array.from({ length: JOBS }, () => new Worker(new URL('./upscale-speed-worker.mjs', import.meta.url), { workerData: { model } }));
  const failed = (worker: Worker) => new Promise<never>((_, reject) => worker.once('error', reject));
  await Promise.race([Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve)))), ...workers.map(failed)]);
  const origin = epochMs();
  const started = performance.now();
  const finished = workers.map(
    (worker) =>
      new Promise<TileDone[]>((resolve, reject) => {
        worker.once('message', (message: { tiles?: TileDone[]; error?: string }) => (message.tiles ? resolve(message.tiles) : reject(new Error(message.error))));
        worker.postMessage({ origin, deadline: origin + budget * 1000 } satisfies JobStart);
      }),
  );
  const perJob = await Promise.race([Promise.all(finished), ...workers.map(failed)]);
  await Promise.all(workers.map((w) => w.terminate()));
  const tiles = perJob.flat();
  return {
    tiles,
    seconds: summarize(tiles).seconds,
    loadSeconds: (started - loading) / 1000,
    warmupSeconds: 0,
    maxRssBytes: maxRssBytes(),
    notes: perJob.map((t, i) => `job ${i + 1}: ${t.length} tiles`),
  };
}

async function runUpscalerJs(model: string, budget: number, probeDir: string): Promise<UpscalerJsResult> {
  const image = await benchImage();
  const registry = ModelRegistry.load();
  const entry = registry.model(model);
  const [modelJson] = await new ModelStore(MODELS_DIR, registry).filesOf(model);
  const scale = entry.scale!;
  const inputRange = (entry.inputRange ?? [0, 1]) as [number, number];
  const ujs = await loadUpscalerJs();
  const { tf } = ujs;
  const loading = performance.now();
  const upscaler = new ujs.Upscaler({ model: modelDefinition(modelJson!, scale, inputRange) });
  await upscaler.ready;
  const warming = performance.now();

  // Warm-up on the probe crop, compared with ours on the same crop (one window for both: no tiling difference).
  const probe = await cropCentre(image, PROBE_SIDE);
  const probeInput = tf.tensor3d(Float32Array.from(probe.data), [probe.height, probe.width, 3]);
  const probeOutput = await upscaler.upscale(probeInput, { output: 'tensor', patchSize: PATCH_SIZE, padding: PATCH_PADDING });
  const values = await probeOutput.data();
  tf.dispose([probeInput, probeOutput]);
  let probeMaxDiff: number | null = null;
  const oursFile = probePath(probeDir, model);
  if (fs.existsSync(oursFile)) {
    const ours = fs.readFileSync(oursFile);
    if (ours.length !== values.length) throw new Error(`UpscalerJS returned ${values.length} values on the probe, ours ${ours.length}`);
    probeMaxDiff = 0;
    for (let i = 0; i < values.length; i++) {
      const level = Math.min(255, Math.max(0, Math.round(values[i]!)));
      probeMaxDiff = Math.max(probeMaxDiff, Math.abs(level - ours[i]!));
    }
  }

  const input = tf.tensor3d(Float32Array.from(image.data), [image.height, image.width, 3]);
  const patches = ujs.getPatchesFromImage([image.width, image.height], PATCH_SIZE, PATCH_PADDING).flat();
  const tiles: TileDone[] = [];
  const controller = new AbortController();
  const origin = epochMs();
  const warmed = performance.now();
  const deadline = origin + budget * 1000;
  // One parameter: UpscalerJS then calls it with the fraction done after each patch, in row-major order.
  const progress = (_percent: number) => {
    const now = epochMs();
    const patch = patches[tiles.length]!;
    tiles.push({
      outputPixels: patch.post.size[0] * patch.post.size[1] * scale * scale,
      inputPixels: patch.pre.size[0] * patch.pre.size[1],
      at: (now - origin) / 1000,
    });
    if (now >= deadline) controller.abort();
  };
  try {
    const output = await upscaler.upscale(input, { output: 'tensor', patchSize: PATCH_SIZE, padding: PATCH_PADDING, progress, signal: controller.signal });
    output.dispose();
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  input.dispose();
  return {
    tiles,
    seconds: summarize(tiles).seconds,
    loadSeconds: (warming - loading) / 1000,
    warmupSeconds: (warmed - warming) / 1000,
    maxRssBytes: maxRssBytes(),
    notes: [`${tiles.length}/${patches.length} patches`],
    probeMaxDiff,
    backend: ujs.backend,
  };
}

/**
 * The endpoints' plans on the 1 MP image. The network passes are extrapolated from the measured throughput of one
 * job (a job runs on one worker, one thread); what follows them (Lanczos to the asked size, back-projection) is run
 * for real on a stand-in of the networks' output of the right size, as its cost does not depend on the content.
 */
async function timePlans(mps: Record<string, number>): Promise<PlanTiming[]> {
  const image = await benchImage();
  const plans: [string, number, UpscalePlan][] = [
    ...Object.entries(UPSCALE_PLANS).map(([s, plan]) => ['upscale', Number(s), plan] as [string, number, UpscalePlan]),
    ...Object.entries(UPSCALE_ADVANCED_PLANS).map(([s, plan]) => ['upscale_advanced', Number(s), plan] as [string, number, UpscalePlan]),
  ];
  const timings: PlanTiming[] = [];
  for (const [endpoint, scale, plan] of plans) {
    let side = SIDE;
    const passOutputMp: number[] = [];
    let networkSeconds: number | null = 0;
    for (const pass of plan.models) {
      side *= pass.scale;
      passOutputMp.push(side ** 2 / 1e6);
      const rate = mps[pass.name];
      networkSeconds = rate && networkSeconds !== null ? networkSeconds + side ** 2 / 1e6 / rate : null;
    }
    const { data } = await sharp(image.data, { raw: { width: SIDE, height: SIDE, channels: 3 } })
      .resize(side, side, { kernel: 'nearest' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let rgb: RawImage = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: side, height: side, channels: 3 };
    const target = SIDE * scale;
    const t0 = performance.now();
    if (side !== target) rgb = resizeLanczos3(rgb, target, target);
    const t1 = performance.now();
    if (plan.backProjection) rgb = await backProject(image, rgb, plan.backProjection);
    const t2 = performance.now();
    timings.push({
      endpoint,
      scale,
      networks: plan.models.map((m) => m.name.replace(/^esrgan-/, '')).join(' → '),
      passOutputMp,
      networkSeconds,
      lanczosSeconds: (t1 - t0) / 1000,
      backProjectionSeconds: (t2 - t1) / 1000,
      outputMp: target ** 2 / 1e6,
    });
    process.stderr.write(`  plan ${endpoint} ×${scale}: non-network stages ${((t2 - t0) / 1000).toFixed(1)} s\n`);
  }
  return timings;
}

// ---------------------------------------------------------------------------------------------------------------
// The orchestrator.

function child<T>(spec: ChildSpec): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SELF, `--child=${JSON.stringify(spec)}`], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as T);
      else reject(new Error(`${spec.mode} ${'model' in spec ? spec.model : ''} exited with ${code}: ${stdout.slice(-2000)}`));
    });
  });
}

interface ModelRow {
  name: string;
  scale: number;
  macs: number;
  ours?: RunResult;
  jobs?: RunResult;
  upscalerjs?: UpscalerJsResult;
  upscalerjsSkipped?: string;
  failures: string[];
}

const mpsOf = (run: RunResult | undefined) => {
  if (!run) return undefined;
  const { outputPixels, seconds } = summarize(run.tiles);
  return seconds > 0 ? outputPixels / seconds / 1e6 : undefined;
};

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const loadAtStart = loadAverage();
  const budget = Number(options.budget);
  const only = options.only?.split(',').filter(Boolean) ?? [];
  const deadlineMs = Number(options.minutes) * 60_000;
  const elapsed = () => performance.now() - benchStarted;
  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-upscale-speed-'));
  process.on('exit', () => fs.rmSync(probeDir, { recursive: true, force: true }));

  const registry = ModelRegistry.load();
  const store = new ModelStore(MODELS_DIR, registry);
  const rows: ModelRow[] = [];
  for (const entry of registry.models) {
    if (entry.format !== 'tfjs-layers' || !entry.scale) continue;
    if (only.length > 0 && !only.some((o) => entry.name.includes(o))) continue;
    const graph = await readTfjsLayersModel(await store.filesOf(entry.name), { scale: entry.scale });
    rows.push({ name: entry.name, scale: entry.scale, macs: macsPerOutputPixel(graph), failures: [] });
  }
  process.stderr.write(`load average ${loadAtStart.toFixed(2)}; ${rows.length} models, ${budget} s per run\n`);

  const [single, double] = await child<MatmulRate[]>({ mode: 'matmul' });
  process.stderr.write(`matmul: ${single!.bestGmacs.toFixed(1)} GMAC/s on 1 thread, ${double!.bestGmacs.toFixed(1)} on 2\n`);

  // A run that fails is reported as such; the others go on.
  const attempt = async <T>(row: ModelRow, what: string, spec: ChildSpec): Promise<T | undefined> => {
    try {
      return await child<T>(spec);
    } catch (error) {
      row.failures.push(`${what}: ${String(error).split('\n')[0]}`);
      process.stderr.write(`${row.name}: ${what} failed: ${String(error)}\n`);
      return undefined;
    }
  };
  for (const row of rows) {
    row.ours = await attempt<RunResult>(row, 'ours', { mode: 'ours', model: row.name, budget, probeDir });
    row.jobs = await attempt<RunResult>(row, '2 jobs', { mode: 'jobs', model: row.name, budget });
    process.stderr.write(`${row.name}: ours ${mpsOf(row.ours)?.toFixed(3)} MP/s, 2 jobs ${mpsOf(row.jobs)?.toFixed(3)} MP/s\n`);
  }

  const upscalerJs = async (row: ModelRow) => {
    row.upscalerjs = await attempt<UpscalerJsResult>(row, 'UpscalerJS', { mode: 'upscalerjs', model: row.name, budget, probeDir });
    if (!row.upscalerjs) row.upscalerjsSkipped = 'failed';
    process.stderr.write(`${row.name}: UpscalerJS ${mpsOf(row.upscalerjs)?.toFixed(3)} MP/s, probe Δ ${row.upscalerjs?.probeMaxDiff}\n`);
  };
  if (options.upscalerjs !== 'none') {
    for (const row of rows.filter((r) => UPSCALERJS_FIRST.includes(r.name))) await upscalerJs(row);
  }

  const mps: Record<string, number> = {};
  for (const row of rows) if (mpsOf(row.ours)) mps[row.name] = mpsOf(row.ours)!;
  const jobsMps: Record<string, number> = {};
  for (const row of rows) if (mpsOf(row.jobs)) jobsMps[row.name] = mpsOf(row.jobs)!;
  const plans = await child<PlanTiming[]>({ mode: 'plans', mps });

  // The other models, cheapest first, while the estimate of the next run fits in the time left.
  if (options.upscalerjs === 'all') {
    const measured = rows.filter((r) => r.upscalerjs);
    const rate = Math.min(...measured.map((r) => executedGmacs(r, r.upscalerjs!)).filter((g) => g > 0));
    const estimate = (row: ModelRow) => {
      const gmacPerPatch = (row.macs * row.scale ** 2 * PATCH_SIZE ** 2) / 1e9;
      const gmacProbe = (row.macs * row.scale ** 2 * PROBE_SIDE ** 2) / 1e9;
      return 8 + (gmacProbe + Math.max(budget * rate, gmacPerPatch)) / rate;
    };
    const rest = rows.filter((r) => !r.upscalerjs).sort((a, b) => estimate(a) - estimate(b));
    for (const row of rest) {
      if (row.upscalerjsSkipped) continue;
      const seconds = Number.isFinite(rate) ? estimate(row) : budget + 10;
      if (elapsed() + seconds * 1000 > deadlineMs) {
        row.upscalerjsSkipped = `skipped: about ${Math.round(seconds)} s, past the ${options.minutes}-minute budget of the bench`;
        continue;
      }
      await upscalerJs(row);
    }
  } else {
    for (const row of rows) if (!row.upscalerjs) row.upscalerjsSkipped = `not run (--upscalerjs=${options.upscalerjs})`;
  }

  const loadAtEnd = loadAverage();
  const markdown = report(rows, single!, double!, plans, jobsMps, {
    budget,
    loadAtStart,
    loadAtEnd,
    minutes: elapsed() / 60_000,
    backend: rows.find((r) => r.upscalerjs)?.upscalerjs?.backend ?? 'not run',
  });
  if (only.length === 0 && options.upscalerjs === 'all') writeSection('bench-upscale-speed', markdown);
  process.stdout.write(`${markdown}\n`);
}

/** Multiply-adds actually executed per second: windows include their context, so more than the useful ones. */
function executedGmacs(row: ModelRow, run: RunResult): number {
  const { inputPixels, seconds } = summarize(run.tiles);
  return seconds > 0 ? (row.macs * row.scale ** 2 * inputPixels) / seconds / 1e9 : 0;
}

function report(
  rows: ModelRow[],
  single: MatmulRate,
  double: MatmulRate,
  plans: PlanTiming[],
  jobsMps: Record<string, number>,
  run: { budget: number; loadAtStart: number; loadAtEnd: number; minutes: number; backend: string },
): string {
  const indicative = Math.max(run.loadAtStart, run.loadAtEnd) > 1.5;
  const limit1 = single.bestGmacs;
  const limit2 = Math.max(double.bestGmacs, 2 * single.bestGmacs);
  const f = (value: number | undefined, digits: number) => (value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits));
  const mib = (run?: RunResult) => (run ? String(Math.round(run.maxRssBytes / 2 ** 20)) : '–');
  const label = (row: ModelRow) => row.name.replace(/^esrgan-/, '');
  const timed = (r?: RunResult) => (r ? `${r.notes.join(', ')}, ${summarize(r.tiles).seconds.toFixed(1)} s` : '');

  const lines = [
    '## Upscaling speed (`npm run bench:upscale-speed`)',
    '',
    machineLine(),
    `Load average ${run.loadAtStart.toFixed(2)} at the start and ${run.loadAtEnd.toFixed(2)} at the end on ${os.cpus().length} cores` +
      (indicative ? ': the machine was shared with other work, so every figure here is **indicative** (other processes took cores from the runs).' : '.') +
      ` The bench took ${run.minutes.toFixed(1)} min.`,
    '',
    `Input: the centre ${SIDE}×${SIDE} (1 MP) of shared/testdata/rooms/${path.basename(PHOTO)}, decoded with decodeImage. ` +
      `**Throughput is measured over a time budget**: each run upscales the image tile by tile and stops at the first tile that ends after ${run.budget} s ` +
      '(or at the end of the image); output MP/s = output pixels of the finished tiles ÷ the time they took, after a warm-up on a ' +
      `${PROBE_SIDE}×${PROBE_SIDE} crop. "s per 1 MP" extrapolates that to the whole image. Every run is a child process of its own; peak RSS is its resourceUsage().maxRSS.`,
    '',
    `- **ours, 1 job**: the production path — ModelRuntime.imageSession (the tfjs-layers model converted to ONNX, onnxruntime-node 1.30, 1 intra-op thread as in the job workers) driven by upscaleTiled with its default ${DEFAULT_TILE_SIZE} px windows and ${DEFAULT_TILE_PADDING} px of context.`,
    `- **ours, 2 jobs**: the production concurrency shape on 2 cores — **2 jobs at once**, each in its own worker thread with its own 1-thread session (as the job worker pool runs them), each upscaling the whole image; MP/s is the two jobs' output together.`,
    `- **UpscalerJS**: the \`upscaler\` package 1.0.0's own \`upscale()\` (its Upscaler class built by the package's shared factory with the modules of its Node build, given @tensorflow/tfjs instead of tfjs-node, which cannot be installed here) on ${run.backend}, with the same weights from our model cache, the same image, patchSize ${PATCH_SIZE} and padding ${PATCH_PADDING} (the same windows as ours), timed with its \`progress\` callback and stopped with its \`signal\`. tfjs does not start wasm threads in Node, so it uses one core: compare it with "ours, 1 job". Δ probe: the largest difference in 8-bit levels between its output and ours on the ${PROBE_SIDE}×${PROBE_SIDE} crop, to show both compute the same network.`,
    '',
    '| model | ×s | MAC / output px | ours 1 job MP/s | s per 1 MP | ours 2 jobs MP/s | UpscalerJS MP/s | ours 1 job ÷ UpscalerJS | ours 2 jobs ÷ UpscalerJS | Δ probe | ours 1 job run | UpscalerJS run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const ours = mpsOf(row.ours);
    const jobs = mpsOf(row.jobs);
    const theirs = mpsOf(row.upscalerjs);
    lines.push(
      `| ${label(row)} | ${row.scale} | ${formatCount(row.macs)} | ${f(ours, 3)} | ${f(ours ? (SIDE ** 2 * row.scale ** 2) / 1e6 / ours : undefined, 0)} | ${f(jobs, 3)} | ` +
        `${theirs ? f(theirs, 4) : '–'} | ${theirs && ours ? `${f(ours / theirs, 1)}×` : '–'} | ${theirs && jobs ? `${f(jobs / theirs, 1)}×` : '–'} | ` +
        `${row.upscalerjs?.probeMaxDiff ?? '–'} | ${timed(row.ours)} | ${row.upscalerjs ? timed(row.upscalerjs) : (row.upscalerjsSkipped ?? '')} |`,
    );
  }
  for (const row of rows.filter((r) => r.failures.length > 0)) lines.push('', `${label(row)} failed: ${row.failures.join('; ')}`);
  const ratios = rows.flatMap((r) => (mpsOf(r.ours) && mpsOf(r.upscalerjs) ? [mpsOf(r.ours)! / mpsOf(r.upscalerjs)!] : []));
  if (ratios.length > 0) {
    lines.push(
      '',
      `Ours on one core against UpscalerJS on one core: ${f(Math.min(...ratios), 1)}× to ${f(Math.max(...ratios), 1)}× its throughput ` +
        `(geometric mean ${f(Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length), 1)}× over ${ratios.length} models); target ≥ 2×.`,
    );
  }

  lines.push(
    '',
    `### Against the machine's limit`,
    '',
    `Limit: a ${MATMUL_N}×${MATMUL_N} by ${MATMUL_N}×${MATMUL_N} float32 MatMul (constant right-hand side, as convolution weights are) in onnxruntime-node with the production session options, built with encodeOnnxModel: ` +
      `**${f(single.bestGmacs, 1)} GMAC/s on 1 thread** (median ${f(single.medianGmacs, 1)} over ${single.runs} runs), ` +
      `**${f(double.bestGmacs, 1)} GMAC/s on 2 threads** (median ${f(double.medianGmacs, 1)} over ${double.runs} runs); best runs are taken as the limit. ` +
      `The limit of 2 jobs is the larger of the 2-thread rate and twice the 1-thread rate: ${f(limit2, 1)} GMAC/s. ` +
      'MAC / output px counts every convolution of the parsed graph (readTfjsLayersModel) at the resolution it runs at; ' +
      '"useful" GMAC/s = that × output MP/s; "executed" adds the windows\' context, which is computed and thrown away (the overlap factor); ' +
      '% of limit = useful GMAC/s ÷ limit, so the overlap counts against us.',
    '',
    '| model | ×s | ours 1 job useful GMAC/s | executed GMAC/s | overlap | % of 1-thread limit | ours 2 jobs useful GMAC/s | % of 2-core limit | UpscalerJS executed GMAC/s | limit MP/s (1 thread) | peak RSS MiB: ours 1 job | ours 2 jobs | UpscalerJS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of rows) {
    const ours = mpsOf(row.ours);
    const jobs = mpsOf(row.jobs);
    const useful1 = ours ? (row.macs * ours * 1e6) / 1e9 : undefined;
    const useful2 = jobs ? (row.macs * jobs * 1e6) / 1e9 : undefined;
    const summary = row.ours ? summarize(row.ours.tiles) : undefined;
    const overlap = summary ? (summary.inputPixels * row.scale ** 2) / summary.outputPixels : undefined;
    lines.push(
      `| ${label(row)} | ${row.scale} | ${f(useful1, 1)} | ${row.ours ? f(executedGmacs(row, row.ours), 1) : '–'} | ${f(overlap, 2)} | ` +
        `${useful1 ? `${f((100 * useful1) / limit1, 0)} %` : '–'} | ${f(useful2, 1)} | ${useful2 ? `${f((100 * useful2) / limit2, 0)} %` : '–'} | ` +
        `${row.upscalerjs ? f(executedGmacs(row, row.upscalerjs), 1) : '–'} | ${f((limit1 * 1e9) / row.macs / 1e6, 3)} | ${mib(row.ours)} | ${mib(row.jobs)} | ${mib(row.upscalerjs)} |`,
    );
  }

  lines.push(
    '',
    '### Endpoint plans on a 1 MP input',
    '',
    'Seconds for one job through each plan of src/services/upscaling/upscale-plans.ts on the 1000×1000 image. ' +
      'The network passes are **extrapolated** from "ours, 1 job" MP/s above (pass output pixels ÷ MP/s; a job runs on one worker thread, one intra-op thread); ' +
      'the Lanczos-3 resize to the asked size and the back-projection are **measured**, run on a stand-in of the networks\' output of the right size. ' +
      '"each of 2 jobs at once" scales the network time by the 2-job throughput (per job, half of "ours 2 jobs") instead.',
    '',
    '| endpoint | ×s | networks | pass outputs MP | networks s | Lanczos s | back-projection s | total s | each of 2 jobs at once s | output MP |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const plan of plans) {
    const total = plan.networkSeconds === null ? undefined : plan.networkSeconds + plan.lanczosSeconds + plan.backProjectionSeconds;
    const passModels = plan.networks.split(' → ');
    let concurrent: number | undefined = 0;
    for (const [i, mp] of plan.passOutputMp.entries()) {
      const rate = jobsMps[`esrgan-${passModels[i]}`];
      concurrent = rate && concurrent !== undefined ? concurrent + mp / (rate / JOBS) : undefined;
    }
    lines.push(
      `| ${plan.endpoint} | ${plan.scale} | ${plan.networks} | ${plan.passOutputMp.map((m) => f(m, 0)).join(' + ')} | ${f(plan.networkSeconds ?? undefined, 0)} | ` +
        `${f(plan.lanczosSeconds, 1)} | ${f(plan.backProjectionSeconds, 1)} | ${f(total, 0)} | ` +
        `${f(concurrent === undefined ? undefined : concurrent + plan.lanczosSeconds + plan.backProjectionSeconds, 0)} | ${f(plan.outputMp, 0)} |`,
    );
  }
  return lines.join('\n');
}

function formatCount(value: number): string {
  return value >= 1e6 ? `${(value / 1e6).toFixed(2)} M` : `${(value / 1e3).toFixed(1)} k`;
}

if (options.child) {
  const spec = JSON.parse(options.child) as ChildSpec;
  const result = await runChild(spec);
  process.stdout.write(`\nRESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}
