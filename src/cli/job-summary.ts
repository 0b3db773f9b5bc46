import type { Job } from '../client/index.js';

/**
 * A job's metadata for people: which job, how long, the credits when the server reports them, and everything the
 * operation put in `result` (engine used, objects removed, faces and plates blurred, sky replaced, fallbacks), as
 * indented `key: value` lines.
 */
export function describeJob(job: Job, operation: string): string {
  const lines = [`job       ${job.id}`, `operation ${operation} (mode ${job.mode})`];
  if (job.completedAt) {
    const seconds = (Date.parse(job.completedAt) - Date.parse(job.createdAt)) / 1000;
    if (Number.isFinite(seconds)) lines.push(`took      ${seconds.toFixed(1)} s`);
  }
  if (typeof job.credits === 'number') lines.push(`credits   ${job.credits}`);
  if (job.error) lines.push(`error     ${job.error.code}: ${job.error.message}`);
  if (job.result && Object.keys(job.result).length > 0) lines.push('result', ...renderObject(job.result, '  '));
  return `${lines.join('\n')}\n`;
}

function renderObject(object: Record<string, unknown>, indent: string): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (isPlainObject(value)) {
      lines.push(`${indent}${key}:`, ...renderObject(value, `${indent}  `));
    } else if (Array.isArray(value) && value.some((item) => isPlainObject(item) || Array.isArray(item))) {
      lines.push(`${indent}${key}: ${value.length}`, ...value.map((item) => `${indent}  - ${inline(item)}`));
    } else {
      lines.push(`${indent}${key}: ${inline(value)}`);
    }
  }
  return lines;
}

/** A value on one line: scalars as they read, lists with commas, objects as `key=value` pairs. */
function inline(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => (Array.isArray(item) ? `[${inline(item)}]` : inline(item))).join(', ');
  if (isPlainObject(value)) return Object.entries(value).map(([k, v]) => `${k}=${isPlainObject(v) ? `{${inline(v)}}` : Array.isArray(v) ? `[${inline(v)}]` : inline(v)}`).join(' ');
  return String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
