import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { AppError } from '../src/errors.js';
import { runTask, type TaskContext } from '../src/jobs/run-task.js';
import type { JobTask } from '../src/jobs/task.js';
import { decodeImage } from '../src/repositories/image-codec.js';
import type { AnyOperation } from '../src/services/operations/operation.js';
import { findOperation } from '../src/services/operations/registry.js';
import { headerOnlyPng } from './helpers/fixtures.js';

const config = loadConfig({}, { image: { maxInputPixels: 10_000_000, maxOutputPixels: 16_000_000 } });

function contextServing(files: Record<string, Buffer>): TaskContext {
  const unused = () => Promise.reject(new Error('no model is needed before the size checks'));
  return {
    signal: new AbortController().signal,
    logger: pino({ level: 'silent' }),
    progress: () => {},
    started: () => {},
    models: { isInstalled: async () => false, imageSession: unused, detectorSession: unused },
    renderer: { available: unused, render: unused },
    config,
    fetcher: {
      fetchBytes: async (url) => {
        const bytes = files[url];
        if (!bytes) throw new Error(`nothing at ${url}`);
        return { bytes, contentType: undefined, finalUrl: url };
      },
    },
  };
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof AppError && error.code === code);
}

describe('runTask checks sizes before decoding', () => {
  it('refuses a too-large upscale from the header alone', async () => {
    const png = headerOnlyPng(3000, 2000);
    // The pixels could not even be decoded: the refusal can only come from the header.
    await rejectsWithCode(decodeImage(png, config.image), 'invalid_image');
    const task: JobTask = { operation: 'upscale', url: 'test:photo', params: { scale: 2 } };
    await rejectsWithCode(runTask(task, contextServing({ 'test:photo': png })), 'output_too_large');
  });

  it('gives checkInput the displayed size of an EXIF-rotated photo', async () => {
    // Stored 40×20; orientation 6 displays it rotated a quarter turn: 20×40.
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const sizes: { width: number; height: number }[] = [];
    const probe = {
      ...findOperation('upscale')!,
      checkInput: (size: { width: number; height: number }) => {
        sizes.push(size);
        throw new AppError('output_too_large', 400, 'stop here');
      },
    } satisfies AnyOperation;
    const task: JobTask = { operation: 'upscale', url: 'test:photo', params: {} };
    await rejectsWithCode(runTask(task, contextServing({ 'test:photo': jpeg }), probe), 'output_too_large');
    assert.deepEqual(sizes, [{ width: 20, height: 40 }]);
  });

  it('refuses a mask of another size before decoding either', async () => {
    const task: JobTask = { operation: 'declutter', url: 'test:photo', maskUrl: 'test:mask', params: {} };
    const files = { 'test:photo': headerOnlyPng(300, 200), 'test:mask': headerOnlyPng(200, 300) };
    await rejectsWithCode(runTask(task, contextServing(files)), 'mask_size_mismatch');
  });
});
