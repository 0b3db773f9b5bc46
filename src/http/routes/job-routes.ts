import { Type } from '@sinclair/typebox';
import type { HttpApp } from '../http-app.js';
import { AppError } from '../../errors.js';
import type { Config } from '../../config/config.js';
import { fallbacksOf, type JobService } from '../../services/job-service.js';
import { setDegradedHeader } from '../job-headers.js';
import type { JobRepository } from '../../repositories/job-repository.js';
import { StorageObjectMissing, type Storage } from '../../repositories/storage.js';
import { toJobView } from '../../services/job-view.js';
import { requireOwner } from '../plugins/authentication.js';
import { COMMON_PROBLEMS, PROBLEM_REF } from '../schemas/problem.js';
import { EXPECTED } from '../validation-messages.js';

const OUTPUT_FILE = '^[0-9a-f]{32}(\\.[a-z]{3,4}|-mask\\.png)$';

export function registerJobRoutes(
  app: HttpApp,
  deps: { jobs: JobService; jobRepository: JobRepository; storage: Storage; config: Config },
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
