import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError, ERROR_TITLES, type ErrorCode } from '../../errors.js';
import { describeValidationErrors } from '../validation-messages.js';
import { setJobHeaders } from '../job-headers.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

function problemBody(error: AppError, requestId: string) {
  return {
    type: `urn:roomcraft:problem:${error.code}`,
    title: ERROR_TITLES[error.code],
    status: error.status,
    detail: error.message,
    code: error.code,
    requestId,
    ...(error.extra.fieldErrors?.length ? { errors: error.extra.fieldErrors } : {}),
    ...(error.extra.jobId ? { jobId: error.extra.jobId } : {}),
  };
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.extra.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.extra.retryAfterSeconds));
  // A problem that belongs to a job (sync timeout, a failed job) points at it like every other processing answer.
  if (error.extra.jobId) setJobHeaders(reply, error.extra.jobId);
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(problemBody(error, String(reply.request.id)));
}

/** Maps what Fastify itself throws (validation, body parsing) onto our error codes; anything unknown becomes a 500. */
function toAppError(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const where = error.validationContext ?? 'request';
    const fieldErrors = describeValidationErrors(error.validation, where);
    return new AppError('validation_failed', 400, `the ${where} is not valid: ${fieldErrors.map((e) => e.message).join('; ')}`, {
      fieldErrors,
    });
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const sent = request.headers['content-type'];
    return new AppError(
      'unsupported_media_type',
      415,
      `send the request body as JSON with "Content-Type: application/json"${sent ? ` (got ${sent.split(';')[0]})` : ' (no Content-Type was sent)'}`,
    );
  }
  const byFastifyCode: Partial<Record<string, [ErrorCode, number, string]>> = {
    FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 413, 'the request body is larger than this server accepts'],
    FST_ERR_CTP_INVALID_JSON_BODY: ['validation_failed', 400, 'the request body is not valid JSON'],
    FST_ERR_CTP_EMPTY_JSON_BODY: ['validation_failed', 400, 'the request body is empty'],
  };
  const known = error.code ? byFastifyCode[error.code] : undefined;
  if (known) return new AppError(known[0], known[1], known[2]);
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
    return new AppError('validation_failed', 400, 'the request body is not valid JSON');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('validation_failed', error.statusCode, error.message);
  }
  return new AppError('internal_error', 500, 'something went wrong on our side; the request id identifies it in our logs');
}

/** 5xx answers that are part of how the service works, not faults: logged without a stack, at these levels. */
const EXPECTED_SERVER_ANSWERS: Partial<Record<ErrorCode, 'info' | 'warn'>> = {
  operation_unavailable: 'info',
  sync_timeout: 'info',
  service_unavailable: 'warn',
  job_aborted: 'warn',
  job_timeout: 'warn',
};

/**
 * Client errors (4xx) and the expected 5xx are logged at info or warn with their code and detail, never with a stack:
 * they are answers, not faults. Only what nobody expected (an exception that is not an AppError) carries its stack,
 * at error level; a 500 AppError (a job that crashed: the worker logged its stack) is logged at error without one.
 */
function logProblem(request: FastifyRequest, original: FastifyError, error: AppError): void {
  const fields = { code: error.code, status: error.status, detail: error.message, ...(error.extra.jobId ? { jobId: error.extra.jobId } : {}) };
  if (error.status < 500) {
    request.log.info(fields, 'client error');
    return;
  }
  const expected = EXPECTED_SERVER_ANSWERS[error.code];
  if (expected) request.log[expected](fields, 'request not served');
  else if (original instanceof AppError) request.log.error(fields, 'request failed');
  else request.log.error({ ...fields, err: original }, 'request failed');
}

/** Every 4xx and 5xx leaves as application/problem+json; no stack trace ever does. */
export function registerProblemDetails(app: HttpApp): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error, request);
    logProblem(request, error, appError);
    return sendProblem(reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new AppError('route_not_found', 404, `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
