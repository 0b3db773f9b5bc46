import type { JobRow } from '../repositories/job-repository.js';
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
}

export function outputUrl(publicUrl: string, outputKey: string): string {
  return `${publicUrl}/v1/outputs/${outputKey}`;
}

/** The storage key of an output's change mask: the output's name with -mask.png (see OperationOutput.changeMask). */
export function changeMaskKey(outputKey: string): string {
  return `${outputKey.replace(/\.[a-z]+$/, '')}-mask.png`;
}

export function toJobView(job: JobRow, publicUrl: string): JobView {
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
  };
}
