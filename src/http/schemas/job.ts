import { Type, type TObject } from '@sinclair/typebox';
import type { AnyOperation } from '../../services/operations/operation.js';

export const JobSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')]),
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
