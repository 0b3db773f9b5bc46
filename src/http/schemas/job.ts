import { Type, type TObject } from '@sinclair/typebox';
import type { AnyOperation } from '../../services/operations/operation.js';
import { OPERATIONS } from '../../services/operations/registry.js';
import { EXPECTED } from '../validation-messages.js';

const JOB_STATUSES = [Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')];

export const JobSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(JOB_STATUSES),
    output: Type.Optional(Type.String({ description: 'URL of the result image, once the job succeeded and until it expires.' })),
    mode: Type.String(),
    createdAt: Type.String({ description: 'ISO 8601 UTC with milliseconds.' }),
    completedAt: Type.Optional(Type.String()),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    credits: Type.Integer({ minimum: 0, description: 'Credits the job costs, at the spec\'s prices.' }),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
    result: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'What the operation reports: engine used, objects removed, ...' }),
    ),
    estimatedSecondsLeft: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Extension: while the job runs and has reported progress, the seconds it should still take (a linear extrapolation of progress over the time since it started). Absent when unknown.',
      }),
    ),
  },
  { $id: 'Job' },
);

export const SyncResultSchema = Type.Object(
  {
    base64: Type.String({ description: 'The result image, base64-encoded.' }),
    status: Type.Literal('success'),
  },
  { $id: 'SyncResult' },
);

/**
 * The pending acknowledgement of one operation: `status`, `id`, the fields the operation module declares (the spec's
 * per-endpoint list), then `mode`. Built from the module, so a field it returns cannot be dropped by the serializer
 * without the module declaring it, and the OpenAPI document shows each endpoint's own fields.
 */
export function acknowledgementSchema(operation: AnyOperation): TObject {
  return Type.Object(
    {
      status: Type.Literal('pending'),
      id: Type.String({ description: 'Job id, for GET /v1/job/{id}.' }),
      ...operation.acknowledgementFields.properties,
      mode: Type.Literal(operation.mode, { description: 'The spec’s value for this endpoint; a fixed label.' }),
    },
    { title: `Acknowledgement of ${operation.name}`, additionalProperties: false },
  );
}

/** The query of GET /v1/jobs. Query values are strings (no type coercion), so `limit` is matched as digits. */
export const JobListQuerySchema = Type.Object({
  limit: Type.Optional(
    Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'Jobs per page, 1 to 100; default 20.', [EXPECTED]: 'a whole number from 1 to 100' }),
  ),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'The `next` of the previous page.' })),
  status: Type.Optional(Type.Union(JOB_STATUSES, { description: 'Only jobs in this state.' })),
  operation: Type.Optional(
    Type.Union(
      OPERATIONS.map((operation) => Type.Literal(operation.name)),
      { description: 'Only jobs of this operation, by its path name (e.g. `upscale`).' },
    ),
  ),
});

export const JobListSchema = Type.Object({
  jobs: Type.Array(Type.Ref('Job'), { description: 'Newest first, each as GET /v1/job/{id} shows it.' }),
  next: Type.Optional(Type.String({ description: 'Cursor of the next page; absent on the last page.' })),
});
