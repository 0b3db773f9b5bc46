import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError, type FieldError } from '../../errors.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { AnyOperation } from '../../services/operations/operation.js';
import { fallbacksOf, type JobService, type ProcessingBody } from '../../services/job-service.js';
import { OPERATIONS } from '../../services/operations/registry.js';
import { requireOwner } from '../plugins/authentication.js';
import { acknowledgementSchema } from '../schemas/job.js';
import { problemResponse, type HeaderDoc } from '../schemas/problem.js';
import { EXPECTED } from '../validation-messages.js';
import { setDegradedHeader, setJobHeaders } from '../job-headers.js';
import { dropUnknownFields, ignoredFieldsHeader } from '../plugins/json-body.js';
import type { GuardedFetcher } from '../../repositories/fetcher/guarded-fetcher.js';

const IMAGE_URL_PATTERN = '^([hH][tT][tT][pP][sS]?://|[dD][aA][tT][aA]:)';
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The OpenAPI tag of the operations that are not built yet, so the reference page lists them apart. */
export const UNAVAILABLE_TAG = 'not yet available';
export const UNAVAILABLE_SUMMARY_PREFIX = 'Not available yet (501) — ';

function bodySchema(operation: AnyOperation): TObject {
  const imageUrl = (description: string) =>
    Type.String({ minLength: 1, pattern: IMAGE_URL_PATTERN, description, [EXPECTED]: 'an http(s) URL or a data: URL' });
  return Type.Object({
    url: imageUrl('Image to process: an http(s) URL or a data: URL.'),
    ...(operation.acceptsMask
      ? { mask: Type.Optional(imageUrl('Mask with the image’s dimensions; white or opaque marks the area.')) }
      : {}),
    webhook: Type.Optional(
      Type.String({
        pattern: '^[hH][tT][tT][pP][sS]?://',
        description: 'URL that receives the signed result POST.',
        [EXPECTED]: 'an http(s) URL',
      }),
    ),
    ...operation.params.properties,
  });
}

const JOB_HEADERS: Record<string, HeaderDoc> = {
  'X-Job-Id': { type: 'string', description: 'The job behind this answer: GET /v1/job/{id} shows its `result` (engine used, sky replaced, objects removed, fallbacks).' },
  Link: { type: 'string', description: '`</v1/job/{id}>; rel="related"`: the same job, as a link.' },
};
const JOB_PROBLEM_HEADERS: Record<string, HeaderDoc> = {
  'X-Job-Id': { type: 'string', description: 'Present when the problem belongs to a job (a failed job, a sync timeout).' },
  Link: { type: 'string', description: '`</v1/job/{id}>; rel="related"`, with X-Job-Id.' },
};
const SUCCESS_HEADERS: Record<string, HeaderDoc> = {
  ...JOB_HEADERS,
  'Preference-Applied': { type: 'string', description: '`respond-async` when the request asked for it with `Prefer: respond-async`.' },
  'X-Roomcraft-Degraded': {
    type: 'string',
    description:
      'Only where the operator allows fallbacks and a model was missing: one entry per fallback, e.g. ' +
      '`"lanczos3";models="esrgan-legacy-psnr-small";reason="model esrgan-legacy-psnr-small is not installed"`.',
  },
  'Idempotent-Replayed': { type: 'string', description: '`true` when an Idempotency-Key replayed an earlier answer.' },
  'X-Credits-Charged': {
    type: 'string',
    description: 'Live keys: the credits this request was charged (refunded should the job fail). Absent for test keys and replays.',
  },
  'X-Credits-Balance': { type: 'string', description: 'Live keys: the balance right after this request’s charge, in credits.' },
  'X-Roomcraft-Ignored-Fields': {
    type: 'string',
    description:
      'Present when the body had fields this operation does not take: their names, comma-separated (at most 20; ' +
      '`#n` for the n-th when a name cannot travel in a header; `+n` for n more). They were dropped, not stored.',
  },
};

/** `Prefer: respond-async` (RFC 7240), among other preferences, in one or several header fields. */
function prefersAsync(request: FastifyRequest): boolean {
  const header = request.headers.prefer;
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values
    .flatMap((value) => value.split(','))
    .some((preference) => preference.split(';')[0]!.split('=')[0]!.trim().toLowerCase() === 'respond-async');
}

/** The fields whose values may be large: the image and the mask travel as data: URLs. */
const DATA_URL_FIELDS = ['url', 'mask'] as const;
/** The longest http(s) URL taken, in characters: what common servers and proxies accept in a request line. */
const MAX_HTTP_URL_LENGTH = 8 * 1024;

/** http(s) URLs longer than any server would answer (only a data: URL may be large), one error per field. */
function overlongUrls(body: ProcessingBody): FieldError[] {
  return (['url', 'mask', 'webhook'] as const)
    .filter((field) => {
      const value = body[field];
      return typeof value === 'string' && value.length > MAX_HTTP_URL_LENGTH && !/^data:/i.test(value);
    })
    .map((field) => ({
      field: `/${field}`,
      message: `${field} must be at most ${MAX_HTTP_URL_LENGTH} characters long unless it is a data: URL (got ${body[field]!.length})`,
    }));
}

/** A webhook that the delivery would refuse to connect to is refused now, not retried for a day. */
async function assertWebhookAllowed(destinations: OperationRouteDeps['destinations'], webhook: string): Promise<void> {
  try {
    await destinations.assertDestinationAllowed(webhook);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'fetch_refused') throw error;
    const message = `webhook: ${error.message}`;
    throw new AppError('webhook_refused', 400, message, { fieldErrors: [{ field: '/webhook', message }] });
  }
}

export interface OperationRouteDeps {
  jobs: JobService;
  catalog: Catalog;
  /** Judges webhook URLs at submit as their delivery will. */
  destinations: Pick<GuardedFetcher, 'assertDestinationAllowed'>;
  /** The body limit of a processing request: room for an image and a mask as data: URLs (json-body's dataUrlBodyLimit). */
  bodyLimit: number;
}

export function registerOperationRoutes(app: HttpApp, deps: OperationRouteDeps): void {
  for (const operation of OPERATIONS) {
    const built = Boolean(operation.run);
    const schema = bodySchema(operation);
    const knownFields = new Set(Object.keys(schema.properties));
    app.post(
      `/v1/${operation.name}`,
      {
        bodyLimit: deps.bodyLimit,
        config: { largeJsonFields: DATA_URL_FIELDS.filter((field) => knownFields.has(field)) },
        // Before validation and before anything is stored: only the documented fields go on, and the answer names the rest.
        preValidation: async (request, reply) => {
          const ignored = dropUnknownFields(request.body, knownFields);
          if (ignored.length > 0) reply.header('x-roomcraft-ignored-fields', ignoredFieldsHeader(ignored));
        },
        schema: {
          tags: [built ? 'operations' : UNAVAILABLE_TAG],
          summary: built ? operation.summary : `${UNAVAILABLE_SUMMARY_PREFIX}${operation.summary}`,
          description:
            `Without \`webhook\` the answer carries the result as base64; with it, or with \`Prefer: respond-async\`, a ` +
            `pending acknowledgement at once and the result later by webhook and GET /v1/job/{id}. Every answer ` +
            `about a job names it in X-Job-Id and Link. mode: \`${operation.mode}\`.` +
            (built ? '' : ' **Not available on this server yet**: the request is validated, then answered 501 operation_unavailable.'),
          security: [{ bearerAuth: [] }],
          headers: Type.Object({
            'idempotency-key': Type.Optional(Type.String({ description: 'Replays the first answer for 24 h.' })),
            prefer: Type.Optional(
              Type.String({
                description: '`respond-async` (RFC 7240): the pending acknowledgement at once, even without `webhook`; then poll GET /v1/job/{id}.',
              }),
            ),
          }),
          body: schema,
          response: {
            200: {
              description:
                'The result `{base64, status}` (no `webhook`), or the pending acknowledgement (`webhook`, or `Prefer: respond-async`).',
              headers: SUCCESS_HEADERS,
              content: { 'application/json': { schema: Type.Union([Type.Ref('SyncResult'), acknowledgementSchema(operation)]) } },
            },
            400: problemResponse(
              'Invalid request (a webhook address the server may not call, JSON nested too deep), or a job that failed on its input (fetch refused, bad image, ...).',
              JOB_PROBLEM_HEADERS,
            ),
            401: problemResponse('Missing or invalid API key.'),
            402: problemResponse('`insufficient_credits`: the balance does not cover the request; `cost` and `balance` say by how much.'),
            403: problemResponse('`addon_not_in_plan`: the operation is a per-request add-on the plan of the key’s owner does not allow.'),
            404: problemResponse('The result of this synchronous job has expired.', JOB_PROBLEM_HEADERS),
            413: problemResponse('The request body is too large, has too many keys or array items, or is large outside url and mask.'),
            415: problemResponse('The request body is not JSON.'),
            422: problemResponse(
              'The Idempotency-Key was used with a different request (`idempotency_key_reused`), or a whole-room staging found the photo’s room layout too uncertain to furnish (`layout_uncertain`).',
              JOB_PROBLEM_HEADERS,
            ),
            429: problemResponse('Too many requests (`rate_limited`), or a test key past its daily jobs (`test_key_daily_limit`); see Retry-After.'),
            500: problemResponse('Our fault; the request id finds it in the logs.', JOB_PROBLEM_HEADERS),
            501: problemResponse('The operation is not built on this server.'),
            503: problemResponse('A model the job needs is not installed, or the service is shutting down.', JOB_PROBLEM_HEADERS),
            504: problemResponse('The synchronous wait ended before the job did; it keeps running.', JOB_PROBLEM_HEADERS),
          },
        },
      },
      async (request, reply) => {
        const owner = requireOwner(request);
        const body = request.body as ProcessingBody;
        const fieldErrors = [...overlongUrls(body), ...(operation.validate?.(body, deps.catalog) ?? [])];
        if (fieldErrors.length > 0) {
          throw new AppError('validation_failed', 400, fieldErrors.map((e) => `${e.field.slice(1)}: ${e.message}`).join('; '), {
            fieldErrors,
          });
        }
        if (body.webhook !== undefined) await assertWebhookAllowed(deps.destinations, body.webhook);
        if (!operation.run) {
          throw new AppError(
            'operation_unavailable',
            501,
            `${operation.name} is not available on this server yet; GET /status.json lists the operations that are`,
          );
        }
        const idempotencyKey = request.headers['idempotency-key'];
        if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey))) {
          throw new AppError('idempotency_key_invalid', 400, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
        }
        const respondAsync = prefersAsync(request);
        const { job, replayed, charged } = await deps.jobs.submit(owner, operation, body, idempotencyKey);
        setJobHeaders(reply, job.id);
        if (replayed) reply.header('idempotent-replayed', 'true');
        if (charged) reply.header('x-credits-charged', String(charged.credits)).header('x-credits-balance', String(charged.balance));
        if (respondAsync) reply.header('preference-applied', 'respond-async');
        if (job.webhook_url || respondAsync) return deps.jobs.acknowledgement(job, operation);
        const settled = await deps.jobs.waitUntilSettled(job.id);
        const result = await deps.jobs.syncResult(settled);
        setDegradedHeader(reply, fallbacksOf(settled));
        return result;
      },
    );
  }
}
