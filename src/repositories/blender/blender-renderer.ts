import { execFile, spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { RawImage } from '../../vision/raw-image.js';
import { encodeImage } from '../image-codec.js';
import type { RenderPasses, RenderScene } from './render-scene.js';

/**
 * The Blender script that builds and renders a RenderScene. scripts/build.mjs copies every file under src/ that is
 * not TypeScript beside the compiled modules, so the script sits next to this module in src/ and in dist/ alike.
 */
export const SCENE_SCRIPT = path.join(import.meta.dirname, 'furniture_scene.py');

/** The oldest Blender with the Shadow Catcher pass (Cycles X) and the object flags the script sets. */
const MIN_VERSION: [number, number] = [3, 0];
/** How much of Blender's output (stdout and stderr together) an error message quotes. */
const OUTPUT_TAIL_BYTES = 8 * 1024;
/** After SIGTERM on abort, how long Blender gets before SIGKILL. */
const KILL_GRACE_MS = 2000;
const VERSION_TIMEOUT_MS = 60_000;

export interface BlenderRendererOptions {
  /** The Blender executable: a path or a name on PATH. Default 'blender'. */
  executable?: string;
  /** Where each render's temporary directory is made. Default: the system's temporary directory. */
  workDir?: string;
  logger?: Logger;
}

export type BlenderAvailability = { ok: true; version: string } | { ok: false; reason: string };

interface Meta {
  width: number;
  height: number;
  lightScale: number;
  timings?: Record<string, number>;
  peakMemoryMiB?: number;
}

/**
 * The only place that talks to Blender: turns a RenderScene into the pieces and Shadow Catcher passes by running
 * furniture_scene.py in a Blender process (Cycles on the CPU). One render per call, in a fresh temporary directory
 * that is removed afterwards; the caller runs one render at a time.
 */
export class BlenderRenderer {
  private readonly executable: string;
  private readonly workDir: string | undefined;
  private readonly logger: Logger | undefined;
  private availability: Promise<BlenderAvailability> | undefined;

  constructor(options: BlenderRendererOptions = {}) {
    this.executable = options.executable ?? 'blender';
    this.workDir = options.workDir;
    this.logger = options.logger;
  }

  /** Whether Blender runs here and is recent enough; asked once per instance (`blender -b --factory-startup --version`). */
  available(): Promise<BlenderAvailability> {
    this.availability ??= probe(this.executable);
    return this.availability;
  }

  /**
   * Renders the scene. `photo`, when given, is written as a PNG beside the scene and becomes `scene.photo.path` (the
   * scene's `photo.irradiance` is kept, 1 without one); without it a non-empty `scene.photo.path` is used as it is,
   * and an empty one means no photo (neutral grey surfaces). Aborting kills Blender; the promise then rejects with
   * the signal's AppError reason, or job_aborted.
   */
  async render(scene: RenderScene, options: { photo?: RawImage; signal?: AbortSignal } = {}): Promise<RenderPasses> {
    const { photo, signal } = options;
    if (signal?.aborted) throw abortError(signal);
    const region = scene.region ?? { x0: 0, y0: 0, x1: scene.width, y1: scene.height };
    const width = region.x1 - region.x0;
    const height = region.y1 - region.y0;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
      throw new AppError('render_failed', 500, `render region ${JSON.stringify(region)} is empty or not in whole pixels`);
    }
    const base = this.workDir ?? os.tmpdir();
    await fsp.mkdir(base, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(base, 'roomcraft-blender-'));
    try {
      const scenePath = path.join(dir, 'scene.json');
      const outDir = path.join(dir, 'out');
      let sceneToWrite: RenderScene = scene;
      if (photo) {
        const photoPath = path.join(dir, 'photo.png');
        await fsp.writeFile(photoPath, (await encodeImage(photo, { format: 'png', lossless: true }, { jpegQuality: 100 })).bytes);
        sceneToWrite = { ...scene, photo: { path: photoPath, irradiance: scene.photo?.irradiance ?? 1 } };
      } else if (scene.photo && !scene.photo.path) {
        const { photo: _none, ...rest } = scene;
        sceneToWrite = rest;
      }
      await fsp.writeFile(scenePath, JSON.stringify(sceneToWrite));
      // An abort while the files were written fires no 'abort' event for the listener run() adds.
      if (signal?.aborted) throw abortError(signal);
      const started = performance.now();
      await this.run(['-b', '--factory-startup', '-noaudio', '--python-exit-code', '1', '-P', SCENE_SCRIPT, '--', scenePath, outDir], signal);
      const seconds = (performance.now() - started) / 1000;
      const meta = JSON.parse(await fsp.readFile(path.join(outDir, 'meta.json'), 'utf8')) as Meta;
      if (meta.width !== width || meta.height !== height) {
        throw new AppError('render_failed', 500, `Blender rendered ${meta.width}×${meta.height} pixels for a ${width}×${height} region`);
      }
      const pieces = await readFloats(path.join(outDir, 'pieces.f32'), width * height * 4);
      const shadow = await readFloats(path.join(outDir, 'shadow.f32'), width * height * 3);
      const guides = {
        albedo: await readFloats(path.join(outDir, 'albedo.f32'), width * height * 3),
        normal: await readFloats(path.join(outDir, 'normal.f32'), width * height * 3),
        depth: await readFloats(path.join(outDir, 'depth.f32'), width * height),
      };
      this.logger?.debug({ width, height, samples: scene.samples, seconds, lightScale: meta.lightScale, blender: meta.timings }, 'blender render done');
      return { width, height, pieces, shadow, guides, lightScale: meta.lightScale, seconds, peakMemoryMiB: meta.peakMemoryMiB ?? 0 };
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs Blender to its exit; rejects with the script's error and the tail of its output, or on abort once it has gone. */
  private run(args: string[], signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let tail = '';
      const keep = (chunk: Buffer): void => {
        tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_BYTES);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let aborted = false;
      let killTimer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        aborted = true;
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
        killTimer.unref();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let settled = false;
      const settle = (error?: Error): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(killTimer);
        if (error) reject(error);
        else resolve();
      };
      child.on('error', (error) => {
        // Failing to start gives no 'close' to wait for; a failure of a running process is followed by one.
        if (child.pid === undefined) {
          settle(aborted ? abortError(signal) : new AppError('renderer_unavailable', 503, `could not run Blender (${this.executable}): ${error.message}`));
        }
      });
      child.on('close', (code, killedBy) => {
        if (aborted) {
          settle(abortError(signal));
        } else if (code !== 0) {
          const exit = code === null ? `was killed by ${killedBy}` : `exited with status ${code}`;
          this.logger?.warn({ code, signal: killedBy, output: tail }, 'blender render failed');
          settle(new AppError('render_failed', 500, `Blender ${exit}: ${scriptError(tail)}`));
        } else {
          settle();
        }
      });
    });
  }
}

async function probe(executable: string): Promise<BlenderAvailability> {
  const output = await new Promise<{ stdout: string; error?: Error }>((resolve) => {
    execFile(executable, ['-b', '--factory-startup', '--version'], { timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      resolve(error ? { stdout: String(stdout), error } : { stdout: String(stdout) });
    });
  });
  const match = /Blender (\d+)\.(\d+)(?:\.(\d+))?/.exec(output.stdout);
  if (!match) {
    return { ok: false, reason: `${executable} -b --version ${output.error ? `failed: ${output.error.message}` : 'printed no Blender version'}` };
  }
  const major = Number(match[1]);
  const minor = Number(match[2]);
  const version = match[0].slice('Blender '.length);
  if (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1])) {
    return { ok: false, reason: `Blender ${version} is too old: ${MIN_VERSION.join('.')} or later is needed` };
  }
  return { ok: true, version };
}

/** The script's own error line when it wrote one, else the end of Blender's output. */
function scriptError(output: string): string {
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  const own = lines.filter((line) => line.startsWith('furniture_scene.py: error: '));
  if (own.length > 0) return own[own.length - 1]!.slice('furniture_scene.py: error: '.length);
  const python = lines.filter((line) => /Error|error/.test(line) && !line.startsWith('Error: Not freed memory'));
  return (python.length > 0 ? python.slice(-3) : lines.slice(-5)).join(' | ');
}

/** A raw little-endian float32 file of exactly `count` values. */
async function readFloats(file: string, count: number): Promise<Float32Array> {
  const bytes = await fsp.readFile(file);
  if (bytes.byteLength !== count * 4) {
    throw new AppError('render_failed', 500, `${path.basename(file)} holds ${bytes.byteLength} bytes, ${count * 4} expected`);
  }
  if (os.endianness() === 'BE') bytes.swap32();
  const out = new Float32Array(count);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

function abortError(signal: AbortSignal | undefined): AppError {
  const reason: unknown = signal?.reason;
  return reason instanceof AppError ? reason : new AppError('job_aborted', 503, 'the job was aborted');
}
