import { Type, type TObject } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { Operation } from '../../services/operations/operation.js';
import type { JobService, ProcessingBody } from '../../services/job-service.js';
import { OPERATIONS } from '../../services/operations/registry.js';
import { requireOwner } from '../plugins/authentication.js';
import { COMMON_PROBLEMS, PROBLEM_REF } from '../schemas/problem.js';

const IMAGE_URL_PATTERN = '^([hH][tT][tT][pP][sS]?://|[dD][aA][tT][aA]:)';
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function bodySchema(operation: Operation): TObject {
  const imageUrl = (description: string) => Type.String({ minLength: 1, pattern: IMAGE_URL_PATTERN, description });
  return Type.Object({
    url: imageUrl('Image to process: an http(s) URL or a data: URL.'),
    ...(operation.acceptsMask
      ? { mask: Type.Optional(imageUrl('Mask with the image’s dimensions; white or opaque marks the area.')) }
      : {}),
    webhook: Type.Optional(
      Type.String({ pattern: '^[hH][tT][tT][pP][sS]?://', description: 'URL that receives the signed result POST.' }),
    ),
    ...operation.params.properties,
  });
}

export function registerOperationRoutes(app: HttpApp, deps: { jobs: JobService; catalog: Catalog }): void {
  for (const operation of OPERATIONS) {
    app.post(
      `/v1/${operation.name}`,
      {
        schema: {
          tags: ['operations'],
          summary: operation.summary,
          description:
            `Without \`webhook\` the answer carries the result as base64; with it, a pending acknowledgement at once ` +
            `and the result later by webhook and GET /v1/job/{id}. mode: \`${operation.mode}\`.` +
            (operation.run ? '' : ' Not available on this server yet: answers 501 operation_unavailable.'),
          security: [{ bearerAuth: [] }],
          headers: Type.Object({
            'idempotency-key': Type.Optional(Type.String({ description: 'Replays the first answer for 24 h.' })),
          }),
          body: bodySchema(operation),
          response: {
            200: Type.Union([Type.Ref('SyncResult'), Type.Ref('Acknowledgement')]),
            ...COMMON_PROBLEMS,
            422: PROBLEM_REF,
            501: PROBLEM_REF,
            504: PROBLEM_REF,
          },
        },
      },
      async (request, reply) => {
        const owner = requireOwner(request);
        const body = request.body as ProcessingBody;
        const fieldErrors = operation.validate?.(body, deps.catalog) ?? [];
        if (fieldErrors.length > 0) {
          throw new AppError('validation_failed', 400, fieldErrors.map((e) => `${e.field}: ${e.message}`).join('; '), {
            fieldErrors,
          });
        }
        if (!operation.run) {
          throw new AppError('operation_unavailable', 501, `${operation.name} is not available on this server yet`);
        }
        const idempotencyKey = request.headers['idempotency-key'];
        if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey))) {
          throw new AppError('idempotency_key_invalid', 400, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
        }
        const { job, replayed } = await deps.jobs.submit(owner, operation, body, idempotencyKey);
        if (replayed) reply.header('idempotent-replayed', 'true');
        if (job.webhook_url) return deps.jobs.acknowledgement(job, operation);
        return deps.jobs.syncResult(await deps.jobs.waitUntilSettled(job.id));
      },
    );
  }
}
