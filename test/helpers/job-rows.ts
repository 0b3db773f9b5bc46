import { randomUUID } from 'node:crypto';
import type { JobRow } from '../../src/repositories/job-repository.js';

/**
 * A job row as JobService.submit writes one (pending, unclaimed, an upscale), for tests that create jobs straight
 * in the database, where no worker takes them first; `fields` sets the rest (user, times, state, lease).
 */
export function jobRow(fields: Partial<JobRow> & Pick<JobRow, 'user_id'>): JobRow {
  return {
    id: randomUUID(),
    key_kind: 'test',
    operation: 'upscale',
    mode: 'upscale',
    status: 'pending',
    request: JSON.stringify({ url: 'https://example.com/room.jpg', params: {} }),
    webhook_url: null,
    credits: 0,
    attempts: 0,
    progress: 0,
    result: null,
    output_key: null,
    output_content_type: null,
    error_code: null,
    error_status: null,
    error_message: null,
    created_at: new Date().toISOString(),
    started_at: null,
    completed_at: null,
    output_expires_at: null,
    lease_owner: null,
    lease_expires_at: null,
    queue: 'light',
    ...fields,
  };
}
