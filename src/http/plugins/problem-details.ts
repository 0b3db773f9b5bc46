import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError, ERROR_TITLES, type ErrorCode, type FieldError } from '../../errors.js';

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
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(problemBody(error, String(reply.request.id)));
}

/** Maps what Fastify itself throws (validation, body parsing) onto our error codes; anything unknown becomes a 500. */
function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) {
    const fieldErrors: FieldError[] = error.validation.map((issue) => {
      const missing = (issue.params as { missingProperty?: string } | undefined)?.missingProperty;
      const field = missing ? `${issue.instancePath}/${missing}` : issue.instancePath || '/';
      return { field, message: missing ? 'is required' : (issue.message ?? 'is invalid') };
    });
    const where = error.validationContext ?? 'request';
    return new AppError('validation_failed', 400, `the ${where} is not valid: ${summarise(fieldErrors)}`, { fieldErrors });
  }
  const byFastifyCode: Partial<Record<string, [ErrorCode, number, string]>> = {
    FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 413, 'the request body is larger than this server accepts'],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: ['validation_failed', 415, 'send the request body as application/json'],
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

function summarise(errors: FieldError[]): string {
  return errors.map((e) => `${e.field} ${e.message}`).join('; ');
}

/** Every 4xx and 5xx leaves as application/problem+json; no stack trace ever does. */
export function registerProblemDetails(app: HttpApp): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new AppError('route_not_found', 404, `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
