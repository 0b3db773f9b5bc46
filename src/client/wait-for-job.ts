import { sleep } from './http.js';
import type { CallOptions } from './options.js';
import type { Job } from './responses.js';

export interface WaitOptions extends CallOptions {
  /** Called with the job after every read, the last (settled) one included. */
  onProgress?: (job: Job) => void;
  /** Milliseconds between two reads. Default: the client's `pollInterval` (1000). */
  interval?: number;
}

/**
 * Reads the job until it is no longer pending and returns it, `success` (with `output`) or `failed` (with
 * `error`): a failed job is an answer, not an exception. There is no deadline of its own: the server fails a job
 * that runs past its limit (60 min by default); pass a signal to stop earlier.
 */
export async function pollJob(read: (options: CallOptions) => Promise<Job>, interval: number, options: WaitOptions): Promise<Job> {
  const call: CallOptions = { ...(options.signal ? { signal: options.signal } : {}), ...(options.headers ? { headers: options.headers } : {}) };
  for (;;) {
    const job = await read(call);
    options.onProgress?.(job);
    if (job.status !== 'pending') return job;
    await sleep(interval, options.signal);
  }
}
