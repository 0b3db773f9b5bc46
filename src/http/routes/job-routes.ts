import { Type, type Static } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import type { Config } from '../../config/config.js';
import { fallbacksOf, type JobService } from '../../services/job-service.js';
import { setDegradedHeader } from '../job-headers.js';
import type { JobRepository } from '../../repositories/job-repository.js';
import { StorageObjectMissing, type Storage } from '../../repositories/storage.js';
import { toJobView } from '../../services/job-view.js';
import type { WebhookService } from '../../services/webhook-service.js';
import { requireOwner } from '../plugins/authentication.js';
import { COMMON_PROBLEMS, PROBLEM_REF, problemResponse } from '../schemas/problem.js';
import { JobListQuerySchema, JobListSchema } from '../schemas/job.js';
import { EXPECTED } from '../validation-messages.js';

/** Jobs per page of GET /v1/jobs when the query does not say. */
const DEFAULT_PAGE_SIZE = 20;

const OUTPUT_FILE = '^[0-9a-f]{32}(\\.[a-z]{3,4}|-mask\\.png)$';

export function registerJobRoutes(
  app: HttpApp,
  deps: {
    jobs: JobService;
    jobRepository: JobRepository;
    storage: Storage;
    config: Config;
    /** Announces a cancelled job that has a webhook (job.failed, code job_cancelled). */
    webhooks: Pick<WebhookService, 'newDelivery' | 'wake'>;
  },
): void {
  app.get(
    '/v1/job/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'State and result of an asynchronous job.',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: {
          200: {
            description: 'The job.',
            headers: {
              'X-Roomcraft-Degraded': {
                type: 'string',
                description: 'Present when the result was made with a fallback for a missing model; see `result.fallbacks`.',
              },
            },
            content: { 'application/json': { schema: Type.Ref('Job') } },
          },
          ...COMMON_PROBLEMS,
          404: PROBLEM_REF,
        },
      },
    },
    async (request, reply) => {
      const owner = requireOwner(request);
      const { id } = request.params as { id: string };
      const job = await deps.jobs.getForOwner(owner, id);
      setDegradedHeader(reply, fallbacksOf(job));
      return toJobView(job, deps.config.publicUrl);
    },
  );

  app.get(
    '/v1/jobs',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Extension: the caller’s jobs, newest first, a page at a time.',
        description:
          'Each job as GET /v1/job/{id} shows it. Pass a page’s `next` as `cursor` for the following page; pages stay consistent while new jobs arrive (they appear on the first page, not in the middle).',
        security: [{ bearerAuth: [] }],
        querystring: JobListQuerySchema,
        response: { 200: JobListSchema, ...COMMON_PROBLEMS },
      },
    },
    async (request) => {
      const owner = requireOwner(request);
      const query = request.query as Static<typeof JobListQuerySchema>;
      const page = await deps.jobs.listForOwner(owner, {
        limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
        ...(query.status === undefined ? {} : { status: query.status }),
        ...(query.operation === undefined ? {} : { operation: query.operation }),
      });
      const now = Date.now();
      return { jobs: page.jobs.map((job) => toJobView(job, deps.config.publicUrl, now)), ...(page.next ? { next: page.next } : {}) };
    },
  );

  app.delete(
    '/v1/job/:id',
    {
      schema: {
        tags: ['jobs'],
        summary: 'Extension: cancels a job no worker has started; it settles as failed with the code job_cancelled.',
        description:
          'A job with a webhook is announced with `job.failed` (code `job_cancelled`). A job already running, or already settled, is a 409 `job_not_cancellable` and is left as it is.',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: {
          200: { description: 'The cancelled job.', content: { 'application/json': { schema: Type.Ref('Job') } } },
          ...COMMON_PROBLEMS,
          404: PROBLEM_REF,
          409: problemResponse('The job is running or has settled: it cannot be cancelled.'),
        },
      },
    },
    async (request) => {
      const owner = requireOwner(request);
      const { id } = request.params as { id: string };
      const cancelled = await deps.jobs.cancel(owner, id, deps.webhooks);
      // A cancelled job never runs: the inputs kept for it go now (or, should this fail, with the sweep).
      await deps.jobs
        .discardInputs(cancelled)
        .catch((error: unknown) => request.log.warn({ err: error, jobId: id }, 'could not remove the stored inputs'));
      return toJobView(cancelled, deps.config.publicUrl);
    },
  );

  // Output URLs are capabilities: 128 random bits name the file, so they work in an <img> without the API key.
  app.get(
    '/v1/outputs/:file',
    {
      schema: {
        tags: ['jobs'],
        summary: 'A result image, as linked from a job’s `output` (or its change mask, from `result.changeMask`).',
        params: Type.Object({ file: Type.String({ pattern: OUTPUT_FILE, [EXPECTED]: 'a file name as given in a job’s `output`' }) }),
        response: { 404: PROBLEM_REF },
      },
    },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      const changeMask = file.endsWith('-mask.png');
      const job = changeMask ? await deps.jobRepository.findByOutputName(file.slice(0, 32)) : await deps.jobRepository.findByOutputKey(file);
      const gone = () => new AppError('not_found', 404, 'no such output; results are kept for a limited time');
      if (!job?.output_content_type) throw gone();
      // Opening is the existence check (one request to an S3 store, not two); the sweep may remove the file meanwhile.
      const stream = await deps.storage.openStream(file).catch((error: unknown) => {
        throw error instanceof StorageObjectMissing ? gone() : error;
      });
      return reply
        .type(changeMask ? 'image/png' : job.output_content_type)
        .header('cache-control', 'private, max-age=86400, immutable')
        .send(stream);
    },
  );
}
