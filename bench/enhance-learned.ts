/**
 * Classical enhancement (enhancePhoto) against learned retouching (MAXIM, learned-retouch.ts) and learned then
 * classical, on the shared room photos: the photo metrics of bench/enhance-tone.ts and the time of each.
 * Needs the model installed (./bin/roomcraft models install).
 * Run: node --import tsx bench/enhance-learned.ts [--long-side 128] [--threads 2] [--limit N] [--only FILE]
 * With --limit or --only the table is printed but docs/benchmarks.md is left alone (a partial run is no table).
 *
 * Every variant is measured as bench/enhance-tone.ts measures its one (comparePhotos): the cast over the pixels that
 * were near-neutral in the original photo, not over each output's own near-neutral pixels. Letting each output choose
 * its own set changes the set with the edit (a wall whose cast is removed enters it), which is not the cast of the
 * same greys before and after.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeImage } from '../src/repositories/image-codec.js';
import { createDetectorSession } from '../src/repositories/models/detector-session.js';
import { readTfjsGraphModel } from '../src/repositories/models/tfjs-graph-files.js';
import { tfjsGraphModelToOnnxNhwc } from '../src/repositories/models/tfjs-graph-nhwc-to-onnx.js';
import { learnedRetouch } from '../src/services/enhance/learned-retouch.js';
import { enhancePhoto } from '../src/vision/enhance/enhance.js';
import { measurePhoto, nearNeutralPixels, type PhotoMetrics } from '../src/vision/enhance/photo-metrics.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { machineLine, writeSection } from './report.js';
import { judge } from './enhance-judge.js';
import { MANIFEST, PHOTO_LIMITS, PHOTOS, ROOT, readManifest } from './shared-photos.js';

const MODEL_DIR = path.join(ROOT, 'data/models/@upscalerjs/maxim-retouching@0.1.0/package/models');

interface Variant {
  metrics: PhotoMetrics;
  milliseconds: number;
  problems: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'long-side': { type: 'string', default: '128' },
      threads: { type: 'string', default: '2' },
      limit: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const longSide = Number(values['long-side']);
  const threads = Number(values.threads);
  const manifest = readManifest();
  if (values.only && !manifest.includes(values.only)) throw new Error(`${values.only} is not in ${MANIFEST}`);
  const photos = values.only ? [values.only] : values.limit ? manifest.slice(0, Number(values.limit)) : manifest;
  const partial = photos.length < manifest.length;
  const files = fs.readdirSync(MODEL_DIR).filter((f) => f.endsWith('.bin')).sort((a, b) => shardIndex(a) - shardIndex(b));
  let start = performance.now();
  const graph = await readTfjsGraphModel([path.join(MODEL_DIR, 'model.json'), ...files.map((f) => path.join(MODEL_DIR, f))]);
  const onnx = tfjsGraphModelToOnnxNhwc(graph, { outputs: { retouched: 'Identity' } });
  const conversionMs = performance.now() - start;
  start = performance.now();
  const session = await createDetectorSession(onnx, { intraOpNumThreads: threads });
  const sessionMs = performance.now() - start;
  console.log(`converted in ${Math.round(conversionMs)} ms (${(onnx.length / 1e6).toFixed(1)} MB), session in ${Math.round(sessionMs)} ms`);

  const rows: { file: string; megapixels: number; before: PhotoMetrics; network: string; variants: Record<string, Variant> }[] = [];
  for (const file of photos) {
    const { image } = await decodeImage(fs.readFileSync(path.join(PHOTOS, file)), PHOTO_LIMITS);
    if (image.channels < 3) {
      console.log(`${file}: greyscale, skipped`);
      continue;
    }
    // The near-neutral pixels of the original: the cast of every variant is measured on these (comparePhotos).
    const neutral = nearNeutralPixels(image);
    const before = measurePhoto(image, neutral);
    const timed = <T>(run: () => T): { result: T; milliseconds: number } => {
      const t = performance.now();
      const result = run();
      return { result, milliseconds: performance.now() - t };
    };
    const classical = timed(() => enhancePhoto(image).image);
    const t = performance.now();
    const learned = await learnedRetouch(image, session, { longSide });
    const learnedMs = performance.now() - t;
    const both = timed(() => enhancePhoto(learned.image).image);
    const variant = (out: RawImage, milliseconds: number): Variant => {
      const metrics = measurePhoto(out, neutral);
      return { metrics, milliseconds, problems: judge(before, metrics) };
    };
    const row = {
      file,
      megapixels: (image.width * image.height) / 1e6,
      before,
      network: `${learned.report.networkWidth}×${learned.report.networkHeight} in ${Math.round(learned.report.networkMilliseconds)} ms`,
      variants: {
        classical: variant(classical.result, classical.milliseconds),
        learned: variant(learned.image, learnedMs),
        'learned+classical': variant(both.result, learnedMs + both.milliseconds),
      },
    };
    rows.push(row);
    console.log(
      `${file} ${row.megapixels.toFixed(1)} MP, net ${row.network}: ` +
        Object.entries(row.variants)
          .map(([k, v]) => `${k} ${Math.round(v.milliseconds)} ms L*${v.metrics.meanLightness.toFixed(1)} [${v.problems.join(', ') || 'ok'}]`)
          .join(' | '),
    );
  }
  await session.close();
  const markdown = render(rows, { longSide, threads, conversionMs, sessionMs, bytes: onnx.length });
  if (partial) console.log(`\npartial run (${photos.length} of ${manifest.length} photos): docs/benchmarks.md not written`);
  else writeSection('bench-enhance-learned', markdown);
  console.log(`\n${markdown}`);
}

function shardIndex(file: string): number {
  return Number(/shard(\d+)of/.exec(file)?.[1] ?? 0);
}

function render(
  rows: { file: string; megapixels: number; before: PhotoMetrics; network: string; variants: Record<string, Variant> }[],
  setup: { longSide: number; threads: number; conversionMs: number; sessionMs: number; bytes: number },
): string {
  const names = ['classical', 'learned', 'learned+classical'];
  const mean = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0) / Math.max(rows.length, 1);
  const lines = [
    '## Learned retouching (MAXIM) against classical enhancement',
    '',
    machineLine(),
    `${rows.length} RGB photos of /work/shared/testdata/rooms. MAXIM-2S (maxim-retouching) converted with tfjs-graph-nhwc-to-onnx.ts ` +
      `in ${Math.round(setup.conversionMs)} ms (${(setup.bytes / 1e6).toFixed(1)} MB ONNX); session opened in ${Math.round(setup.sessionMs)} ms; ` +
      `network run on the whole photo downscaled to a long side of ${setup.longSide}, padded to ×64, onnxruntime ${setup.threads} thread(s); ` +
      'change carried to full resolution by a grid of local 3×4 colour matrices (colour-transfer.ts). ' +
      'Metrics as bench-enhance-tone measures them (comparePhotos: the cast of every variant over the pixels near-neutral in the original). ' +
      'Problems: the pass/fail rules of bench-enhance-tone (worse beyond tolerance, or a dark / cast image not improved).',
    '',
    '| variant | photos passing | mean ΔL* | mean Δclipped % | mean Δcrushed % | mean Δcast | mean Δcolourfulness | median ms | max ms (MP) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const name of names) {
    const times = rows.map((r) => r.variants[name]!.milliseconds).sort((a, b) => a - b);
    const slowest = rows.reduce((a, r) => (r.variants[name]!.milliseconds > a.variants[name]!.milliseconds ? r : a), rows[0]!);
    const d = (f: (m: PhotoMetrics) => number) => mean((r) => f(r.variants[name]!.metrics) - f(r.before));
    lines.push(
      `| ${name} | ${rows.filter((r) => r.variants[name]!.problems.length === 0).length}/${rows.length} | ${d((m) => m.meanLightness).toFixed(2)} | ` +
        `${(100 * d((m) => m.clippedHighlights)).toFixed(2)} | ${(100 * d((m) => m.crushedShadows)).toFixed(2)} | ${d((m) => m.colourCast).toFixed(2)} | ` +
        `${d((m) => m.colourfulness).toFixed(2)} | ${Math.round(times[Math.floor(times.length / 2)] ?? 0)} | ` +
        `${Math.round(slowest?.variants[name]!.milliseconds ?? 0)} (${slowest?.megapixels.toFixed(1)}) |`,
    );
  }
  lines.push('', '| photo | MP | before L* / cast | network | ' + names.map((n) => `${n}: L* / cast / problems`).join(' | ') + ' |');
  lines.push('|---|---|---|---|' + names.map(() => '---').join('|') + '|');
  for (const r of rows) {
    lines.push(
      `| ${r.file} | ${r.megapixels.toFixed(1)} | ${r.before.meanLightness.toFixed(1)} / ${r.before.colourCast.toFixed(1)} | ${r.network} | ` +
        names
          .map((n) => {
            const v = r.variants[n]!;
            return `${v.metrics.meanLightness.toFixed(1)} / ${v.metrics.colourCast.toFixed(1)} / ${v.problems.join(', ') || 'ok'}`;
          })
          .join(' | ') +
        ' |',
    );
  }
  return lines.join('\n');
}

await main();
