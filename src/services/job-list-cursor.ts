import { AppError } from '../errors.js';
import type { JobSummaryRow } from '../repositories/job-repository.js';

/** Where a page of GET /v1/jobs ends: the last job shown, by the listing's order (created_at, then id). */
export interface JobListPosition {
  createdAt: string;
  id: string;
}

/** The opaque `next` of a page: base64url of the last job's creation time and id. Clients pass it back unread. */
export function encodeJobListCursor(last: Pick<JobSummaryRow, 'created_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
}

/** The position a cursor names; a cursor this service did not hand out is a 400 naming the `cursor` parameter. */
export function decodeJobListCursor(cursor: string): JobListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (Array.isArray(decoded) && decoded.length === 2 && decoded.every((part) => typeof part === 'string')) {
    const [createdAt, id] = decoded as [string, string];
    return { createdAt, id };
  }
  const message = 'cursor must be the `next` of a previous page of GET /v1/jobs';
  throw new AppError('validation_failed', 400, `the querystring is not valid: ${message}`, { fieldErrors: [{ field: '/cursor', message }] });
}
