import { Type } from '@sinclair/typebox';

/** RFC 9457 problem details, with our stable `code` and the request id. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'URI naming the problem kind: urn:roomcraft:problem:<code>.' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'Stable machine-readable error code; see docs/api.md.' }),
    requestId: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String({ description: 'JSON pointer into the request.' }), message: Type.String() })),
    ),
    jobId: Type.Optional(Type.String({ description: 'The job concerned, when one exists (e.g. after a sync timeout).' })),
    cost: Type.Optional(Type.Integer({ description: '`insufficient_credits`: what the request costs, in credits.' })),
    balance: Type.Optional(Type.Integer({ description: '`insufficient_credits`: the balance the request found, in credits.' })),
  },
  { $id: 'Problem', additionalProperties: false },
);

const ref = Type.Ref('Problem');

/** The error responses every authenticated route can give. */
export const COMMON_PROBLEMS = {
  400: ref,
  401: ref,
  429: ref,
  500: ref,
} as const;

export const PROBLEM_REF = ref;

/** How a response header field is documented in the OpenAPI document. */
export interface HeaderDoc {
  type: 'string';
  description: string;
}

/** A problem response in the OpenAPI content form: its media type is application/problem+json, with header fields. */
export function problemResponse(description: string, headers?: Record<string, HeaderDoc>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/problem+json': { schema: ref } },
  };
}
