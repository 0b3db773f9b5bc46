import type { FastifyReply } from 'fastify';
import type { ModelFallback } from '../services/operations/model-policy.js';

/**
 * The response header fields of processing answers, documented in docs/api.md and in the OpenAPI document:
 * which job an answer belongs to, and whether its result was made with a fallback.
 */
export const JOB_ID_HEADER = 'x-job-id';
export const DEGRADED_HEADER = 'x-roomcraft-degraded';

/** `X-Job-Id: <id>` and `Link: </v1/job/<id>>; rel="related"`, so even a synchronous caller can look the job up. */
export function setJobHeaders(reply: FastifyReply, jobId: string): void {
  reply.header(JOB_ID_HEADER, jobId);
  reply.header('link', `</v1/job/${encodeURIComponent(jobId)}>; rel="related"`);
}

/**
 * `X-Roomcraft-Degraded: "lanczos3";models="esrgan-legacy-psnr-small";reason="model esrgan-legacy-psnr-small is not installed"`:
 * a Structured Field list (RFC 8941), one string per fallback (the engine that ran instead) with the missing models
 * (space-separated) and the reason as parameters. Absent when nothing was degraded.
 */
export function setDegradedHeader(reply: FastifyReply, fallbacks: readonly ModelFallback[]): void {
  if (fallbacks.length === 0) return;
  reply.header(
    DEGRADED_HEADER,
    fallbacks.map((f) => `${sfString(f.engine)};models=${sfString(f.models.join(' '))};reason=${sfString(f.reason)}`).join(', '),
  );
}

/** An RFC 8941 sf-string: printable ASCII, with `"` and `\` escaped; anything else becomes `?`. */
function sfString(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
