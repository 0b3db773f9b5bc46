// Worker threads do not inherit the TypeScript loader of the main thread on Node 20, so each registers it itself
// (as src/jobs/worker-entry.mjs does).
import { register } from 'tsx/esm/api';

register();
await import('./upscale-speed-job.ts');
