/**
 * `npm run bench:upscale-quality`: every candidate engine on the shared listing photos. Each photo's centre crop is
 * downscaled by s with bicubic, upscaled back, and compared with the crop: Y-PSNR and SSIM (border of s + 4 px
 * cropped), and sharpness — the output's mean gradient over the original's. Writes docs/benchmarks.md and a contact
 * sheet of crops to docs/images/upscale-contact-sheet.jpg.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { decodeImage } from '../src/repositories/image-codec.js';
import { ModelRegistry } from '../src/repositories/models/model-registry.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { ModelRuntime } from '../src/repositories/models/model-runtime.js';
import { upscaleWithModels, type UpscalePlan } from '../src/services/upscaling/upscale-engine.js';
import { resizeLanczos3 } from '../src/vision/lanczos.js';
import type { RawImage } from '../src/vision/raw-image.js';
import { splitAlpha, greyToRgb } from '../src/vision/channels.js';
import { crop, luma, meanGradient, psnr, ssim } from './image-quality.js';
import { mean, median } from './statistics.js';
import { selfEnsemble } from './upscale-refinements.js';
import { machineLine, writeSection } from './report.js';
import { ROOT, PHOTOS, PHOTO_LIMITS, readManifest } from './shared-photos.js';

const CROP = 240; // divisible by 2, 3, 4 and 6
const only = process.argv.slice(2);

interface Candidate {
  name: string;
  scale: number;
  run: (lr: RawImage) => Promise<RawImage>;
}

const registry = ModelRegistry.load();
const models = new ModelRuntime(new ModelStore(path.join(ROOT, 'data/models'), registry), registry, { intraOpNumThreads: 2 });

const chain = (...names: string[]): UpscalePlan => ({
  models: names.map((name) => ({ name, scale: registry.model(name).scale! })),
});
const withBackProjection = (plan: UpscalePlan): UpscalePlan => ({ ...plan, backProjection: 2 });

function network(label: string, scale: number, plan: UpscalePlan): Candidate {
  return {
    name: label,
    scale,
    run: async (lr) => {
      const outcome = await upscaleWithModels(lr, scale, plan, models);
      if (outcome.result.fallback) throw new Error(outcome.result.fallback);
      return outcome.image;
    },
  };
}

const resample = (kernel: 'cubic' | 'lanczos3') => async (image: RawImage, width: number, height: number) => {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(width, height, { kernel, fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
};
const bicubic = resample('cubic');

function classical(scale: number): Candidate[] {
  return [
    { name: 'bicubic', scale, run: (lr) => bicubic(lr, lr.width * scale, lr.height * scale) },
    { name: 'Lanczos3', scale, run: async (lr) => resizeLanczos3(lr, lr.width * scale, lr.height * scale) },
  ];
}

const psnrSmall = chain('esrgan-legacy-psnr-small');
const allCandidates: Candidate[] = [
  ...classical(2),
  network('thick ×2', 2, chain('esrgan-thick-x2')),
  network('medium ×2', 2, chain('esrgan-medium-x2')),
  network('slim ×2', 2, chain('esrgan-slim-x2')),
  network('div2k ×2', 2, chain('esrgan-legacy-div2k-x2')),
  network('psnr-small ×2', 2, psnrSmall),
  {
    name: 'psnr-small ×2 + self-ensemble',
    scale: 2,
    run: (lr) => selfEnsemble(lr, (image) => upscaleWithModels(image, 2, psnrSmall, models).then((o) => o.image)),
  },
  network('psnr-small ×2 + back-projection', 2, withBackProjection(psnrSmall)),
  network('thick ×2 + back-projection', 2, withBackProjection(chain('esrgan-thick-x2'))),
  ...classical(3),
  network('thick ×3', 3, chain('esrgan-thick-x3')),
  network('medium ×3', 3, chain('esrgan-medium-x3')),
  network('slim ×3', 3, chain('esrgan-slim-x3')),
  network('div2k ×3', 3, chain('esrgan-legacy-div2k-x3')),
  network('psnr-small ×2 ↑ Lanczos ×1.5', 3, psnrSmall),
  network('psnr-small ×2 ↑ Lanczos ×1.5 + back-projection', 3, withBackProjection(psnrSmall)),
  network('psnr-small ×2 → psnr-small ×2 ↓ 3 + back-projection', 3, withBackProjection(chain('esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small'))),
  network('medium ×3 + back-projection', 3, withBackProjection(chain('esrgan-medium-x3'))),
  ...classical(4),
  network('thick ×4', 4, chain('esrgan-thick-x4')),
  network('medium ×4', 4, chain('esrgan-medium-x4')),
  network('slim ×4', 4, chain('esrgan-slim-x4')),
  network('div2k ×4', 4, chain('esrgan-legacy-div2k-x4')),
  network('gans ×4', 4, chain('esrgan-legacy-gans')),
  network('psnr-small ×2 → psnr-small ×2', 4, chain('esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small')),
  network('psnr-small ×2 → psnr-small ×2 + back-projection', 4, withBackProjection(chain('esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small'))),
  network('gans ×4 + back-projection', 4, withBackProjection(chain('esrgan-legacy-gans'))),
  ...classical(6),
  network('div2k ×3 → div2k ×2', 6, chain('esrgan-legacy-div2k-x3', 'esrgan-legacy-div2k-x2')),
  network('div2k ×2 → div2k ×3', 6, chain('esrgan-legacy-div2k-x2', 'esrgan-legacy-div2k-x3')),
  network('div2k ×3 → psnr-small ×2', 6, chain('esrgan-legacy-div2k-x3', 'esrgan-legacy-psnr-small')),
  network('thick ×8 ↓ 6', 6, chain('esrgan-thick-x8')),
  network('div2k ×4 → div2k ×2 ↓ 6', 6, chain('esrgan-legacy-div2k-x4', 'esrgan-legacy-div2k-x2')),
  network('medium ×3 → psnr-small ×2 + back-projection', 6, withBackProjection(chain('esrgan-medium-x3', 'esrgan-legacy-psnr-small'))),
  network('psnr-small ×2 → medium ×3 + back-projection', 6, withBackProjection(chain('esrgan-legacy-psnr-small', 'esrgan-medium-x3'))),
  network('psnr-small ×2 → psnr-small ×2 ↑ 1.5 + back-projection', 6, withBackProjection(chain('esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small'))),
  network('psnr-small ×2 ×3 ↓ 6 + back-projection', 6, withBackProjection(chain('esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small', 'esrgan-legacy-psnr-small'))),
  network('thick ×8 ↓ 6 + back-projection', 6, withBackProjection(chain('esrgan-thick-x8'))),
];
const candidates = allCandidates.filter((c) => only.length === 0 || only.some((o) => c.name.includes(o)));

interface Score {
  psnr: number;
  ssim: number;
  sharpness: number;
  ms: number;
}

async function loadCrops(): Promise<{ file: string; hr: RawImage }[]> {
  const crops = [];
  for (const file of readManifest()) {
    const decoded = await decodeImage(fs.readFileSync(path.join(PHOTOS, file)), PHOTO_LIMITS);
    const { colour } = splitAlpha(decoded.image);
    const rgb = colour.channels === 1 ? greyToRgb(colour) : colour;
    const size = Math.floor(Math.min(CROP, rgb.width, rgb.height) / 12) * 12;
    const left = (rgb.width - size) >> 1;
    const top = (rgb.height - size) >> 1;
    const { data, info } = await sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
      .extract({ left, top, width: size, height: size })
      .raw()
      .toBuffer({ resolveWithObject: true });
    crops.push({ file, hr: { data, width: info.width, height: info.height, channels: 3 as const } });
  }
  return crops;
}

function score(hr: RawImage, sr: RawImage, scale: number, ms: number): Score {
  const border = scale + 4;
  const reference = crop(luma(hr.data, hr.width, hr.height), border);
  const output = crop(luma(sr.data, sr.width, sr.height), border);
  return { psnr: psnr(reference, output), ssim: ssim(reference, output), sharpness: meanGradient(output) / meanGradient(reference), ms };
}

async function main(): Promise<void> {
  const crops = await loadCrops();
  const results = new Map<Candidate, Score[]>();
  const sheet: { file: string; hr: RawImage; outputs: Map<string, RawImage> }[] = [];
  for (const [index, { file, hr }] of crops.entries()) {
    const lrByScale = new Map<number, RawImage>();
    const outputs = new Map<string, RawImage>();
    for (const candidate of candidates) {
      let lr = lrByScale.get(candidate.scale);
      if (!lr) {
        lr = await bicubic(hr, hr.width / candidate.scale, hr.height / candidate.scale);
        lrByScale.set(candidate.scale, lr);
      }
      const started = performance.now();
      const sr = await candidate.run(lr);
      const s = score(hr, sr, candidate.scale, performance.now() - started);
      if (!results.has(candidate)) results.set(candidate, []);
      results.get(candidate)!.push(s);
      if (candidate.scale === 4) outputs.set(candidate.name, sr);
      if (index === 0) process.stderr.write(`  ${candidate.name}: ${Math.round(s.ms)} ms\n`);
    }
    if (index % 6 === 0) sheet.push({ file, hr, outputs });
    process.stderr.write(`${index + 1}/${crops.length} ${file}\n`);
  }

  const lines = [
    '## Upscaling quality (`npm run bench:upscale-quality`)',
    '',
    machineLine(),
    `${crops.length} photos of shared/testdata/rooms: centre crop of up to ${CROP} px, downscaled ×s with bicubic, upscaled back; ` +
      'Y (BT.601) PSNR and SSIM with a border of s + 4 px cropped; sharpness = mean gradient of the output over the original’s. ' +
      'Time is per crop (LR side 384 / s), one process, 2 ORT threads.',
    '',
    '| scale | engine | median PSNR dB | mean PSNR dB | median SSIM | median sharpness | Δ PSNR vs Lanczos3 | Δ sharpness vs Lanczos3 | median ms |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const lanczos = new Map(candidates.filter((c) => c.name === 'Lanczos3').map((c) => [c.scale, results.get(c)!]));
  for (const candidate of candidates) {
    const scores = results.get(candidate)!;
    const base = lanczos.get(candidate.scale);
    const m = (pick: (s: Score) => number) => median(scores.map(pick));
    const dPsnr = base ? m((s) => s.psnr) - median(base.map((s) => s.psnr)) : NaN;
    const dSharp = base ? m((s) => s.sharpness) - median(base.map((s) => s.sharpness)) : NaN;
    lines.push(
      `| ×${candidate.scale} | ${candidate.name} | ${m((s) => s.psnr).toFixed(2)} | ${mean(scores.map((s) => s.psnr)).toFixed(2)} | ` +
        `${m((s) => s.ssim).toFixed(4)} | ${m((s) => s.sharpness).toFixed(3)} | ${signed(dPsnr, 2)} | ${signed(dSharp, 3)} | ${Math.round(m((s) => s.ms))} |`,
    );
  }
  const markdown = lines.join('\n');
  if (only.length === 0) writeSection('bench-upscale-quality', markdown);
  process.stdout.write(`${markdown}\n`);
  if (sheet.length > 0 && only.length === 0) await writeContactSheet(sheet);
  await models.close();
}

function signed(value: number, digits: number): string {
  return Number.isNaN(value) ? '' : `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

/** Rows of 128 px crops (shown at 2×) of the ×4 results: original | each ×4 engine. */
async function writeContactSheet(rows: { file: string; hr: RawImage; outputs: Map<string, RawImage> }[]): Promise<void> {
  const tile = 128;
  const shown = 256;
  const names = ['original', ...rows[0]!.outputs.keys()];
  const label = 22;
  const composites: OverlayOptions[] = [];
  for (const [r, row] of rows.entries()) {
    const images = [row.hr, ...row.outputs.values()];
    for (const [c, image] of images.entries()) {
      const left = Math.max(0, (image.width >> 1) - tile);
      const top = Math.max(0, (image.height >> 1) - tile / 2);
      const piece = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .extract({ left, top, width: Math.min(tile, image.width), height: Math.min(tile, image.height) })
        .resize(shown, shown, { kernel: 'nearest' })
        .png()
        .toBuffer();
      composites.push({ input: piece, left: c * shown, top: label + r * shown });
    }
  }
  const header = `<svg width="${names.length * shown}" height="${label}">${names
    .map((n, i) => `<text x="${i * shown + 4}" y="16" font-family="sans-serif" font-size="14">${n.replace(/&/g, '&amp;')}</text>`)
    .join('')}</svg>`;
  composites.push({ input: Buffer.from(header), left: 0, top: 0 });
  await sharp({ create: { width: names.length * shown, height: label + rows.length * shown, channels: 3, background: '#ffffff' } })
    .composite(composites)
    .jpeg({ quality: 88 })
    .toFile(path.join(ROOT, 'docs/images/upscale-contact-sheet.jpg'));
}

await main();
