import { Type } from '@sinclair/typebox';

export const JobSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')]),
    output: Type.Optional(Type.String({ description: 'URL of the result image, once the job succeeded and until it expires.' })),
    mode: Type.String(),
    createdAt: Type.String({ description: 'ISO 8601 UTC with milliseconds.' }),
    completedAt: Type.Optional(Type.String()),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
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

/** The pending acknowledgement; which optional fields appear depends on the endpoint, as the spec lists them. */
export const AcknowledgementSchema = Type.Object(
  {
    status: Type.Literal('pending'),
    id: Type.String({ description: 'Job id, for GET /v1/job/{id}.' }),
    styleId: Type.Optional(Type.String()),
    roomId: Type.Optional(Type.String()),
    creativity: Type.Optional(Type.Number()),
    skyId: Type.Optional(Type.String()),
    mode: Type.String(),
  },
  { $id: 'Acknowledgement' },
);
