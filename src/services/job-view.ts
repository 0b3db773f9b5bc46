import type { JobSummaryRow } from '../repositories/job-repository.js';
import type { JobStatus } from '../repositories/database/schema.js';

/** What GET /v1/job/{id} and the webhook body show of a job: the spec's four fields first, our additions after. */
export interface JobView {
  id: string;
  status: JobStatus;
  output?: string;
  mode: string;
  createdAt: string;
  completedAt?: string;
  progress: number;
  /** Credits the job costs (the spec's prices: declutter 2 automatic / 1 with a mask, upscale_advanced 2, others 1). */
  credits: number;
  error?: { code: string; message: string };
  result?: Record<string, unknown>;
  /**
   * Extension: while a worker runs the job and has reported progress, the seconds it should still take, extrapolated
   * linearly from the progress and the time since the attempt started. Absent when unknown (waiting, just started).
   */
  estimatedSecondsLeft?: number;
}

export function outputUrl(publicUrl: string, outputKey: string): string {
  return `${publicUrl}/v1/outputs/${outputKey}`;
}

/** The storage key of an output's change mask: the output's name with -mask.png (see OperationOutput.changeMask). */
export function changeMaskKey(outputKey: string): string {
  return `${outputKey.replace(/\.[a-z]+$/, '')}-mask.png`;
}

/** `now` (ms) is when the view is taken, for the estimate of the time left. */
export function toJobView(job: JobSummaryRow, publicUrl: string, now = Date.now()): JobView {
  const secondsLeft = estimatedSecondsLeft(job, now);
  return {
    id: job.id,
    status: job.status,
    ...(job.output_key ? { output: outputUrl(publicUrl, job.output_key) } : {}),
    mode: job.mode,
    createdAt: job.created_at,
    ...(job.completed_at ? { completedAt: job.completed_at } : {}),
    progress: job.progress,
    credits: job.credits,
    ...(job.status === 'failed'
      ? { error: { code: job.error_code ?? 'processing_failed', message: job.error_message ?? '' } }
      : {}),
    ...(job.result ? { result: JSON.parse(job.result) as Record<string, unknown> } : {}),
    ...(secondsLeft === undefined ? {} : { estimatedSecondsLeft: secondsLeft }),
  };
}

/**
 * Elapsed × (1 − progress) / progress, for a job under a live claim whose attempt has started and reported some
 * progress. Nothing for a job that waits (when a worker frees up is not known here) or has reported none yet.
 */
function estimatedSecondsLeft(job: JobSummaryRow, now: number): number | undefined {
  const running = job.status === 'pending' && job.lease_expires_at !== null && Date.parse(job.lease_expires_at) > now;
  if (!running || job.started_at === null || job.progress <= 0 || job.progress >= 1) return undefined;
  const elapsedSeconds = (now - Date.parse(job.started_at)) / 1000;
  if (!(elapsedSeconds >= 0)) return undefined;
  return Math.ceil((elapsedSeconds * (1 - job.progress)) / job.progress);
}
