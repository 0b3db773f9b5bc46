/**
 * One job worker of the "2 jobs at once" runs of `bench/upscale-speed.ts`: like a worker of src/jobs/worker-pool.ts,
 * it has its own ModelRuntime and session (1 intra-op thread) and upscales the whole 1 MP image on its own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { upscaleTiled } from '../src/services/upscaling/tiled-upscale.js';
import { benchImage, cropCentre, PROBE_SIDE } from './upscale-speed-common.js';
import { openSession, timedTiledUpscale } from './upscale-speed-ours.js';

export interface JobStart {
  origin: number;
  deadline: number;
}

if (!parentPort) throw new Error('upscale-speed-job.ts runs in a worker thread');
const port = parentPort;
const { model } = workerData as { model: string };
const image = await benchImage();
const { session, scale, runtime } = await openSession(model);
await upscaleTiled(await cropCentre(image, PROBE_SIDE), (tile, h, w) => session.infer(tile, h, w), { scale });
port.once('message', (start: JobStart) => {
  timedTiledUpscale(image, (tile, h, w) => session.infer(tile, h, w), scale, start.origin, start.deadline)
    .then(async (tiles) => {
      await runtime.close();
      port.postMessage({ tiles });
    })
    .catch((error: unknown) => port.postMessage({ error: String(error) }));
});
port.postMessage('ready');
