import crypto from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpApp } from '../http-app.js';
import { AppError, ERROR_TITLES, type ErrorCode } from '../../errors.js';
import { describeValidationErrors } from '../validation-messages.js';
import { setJobHeaders } from '../job-headers.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** Fastify's maxParamLength, which app.ts leaves at its default. */
const MAX_PATH_SEGMENT_LENGTH = 100;

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
    ...(error.extra.credits ? { cost: error.extra.credits.cost, balance: error.extra.credits.balance } : {}),
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
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['malformed_request', 400, 'the request body is not as long as its Content-Length says'],
    FST_ERR_BAD_URL: ['malformed_request', 400, 'the URL is not valid: a % must start a percent-encoded byte such as %2F'],
    FST_ERR_INVALID_URL: ['malformed_request', 400, 'the URL is not valid'],
    FST_ERR_MAX_PARAM_LENGTH: ['uri_too_long', 414, `a path segment is longer than ${MAX_PATH_SEGMENT_LENGTH} characters (job ids have 36)`],
  };
  const known = error.code ? byFastifyCode[error.code] : undefined;
  if (known) return new AppError(known[0], known[1], known[2]);
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
    return new AppError('validation_failed', 400, 'the request body is not valid JSON');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(CODE_BY_CLIENT_STATUS[error.statusCode] ?? 'validation_failed', error.statusCode, error.message);
  }
  return new AppError('internal_error', 500, 'something went wrong on our side; the request id identifies it in our logs');
}

/** The code of a 4xx that Fastify or Node answers without saying more than its status. */
const CODE_BY_CLIENT_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'malformed_request',
  404: 'route_not_found',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  431: 'header_fields_too_large',
};

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

/**
 * Fastify's `frameworkErrors` option: what its router refuses before any route runs (a bad percent-encoding such as
 * `/v1/job/%zz`, a path segment over maxParamLength) answers as a problem like everything else.
 */
export function problemOnFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(error, request);
  logProblem(request, error, appError);
  // These replies skip the app's hooks, among them the one that names the request.
  reply.header('x-request-id', request.id);
  void sendProblem(reply, appError);
}

/** What Node's HTTP parser refuses before Fastify sees a request, as a status and a problem. */
function clientErrorProblem(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new AppError(
      'header_fields_too_large',
      431,
      'the request line and header fields are larger than this server accepts (16 KiB together); a long URL counts too',
    );
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('request_timeout', 408, 'the request did not arrive in full in time');
  }
  return new AppError('malformed_request', 400, 'the request is not valid HTTP/1.1 and could not be read');
}

/**
 * Fastify's `clientErrorHandler` option: Node's HTTP parser answers a request it cannot read (header fields over
 * 16 KiB, malformed HTTP, a request that never finishes arriving) before Fastify has a request or a reply, so this
 * writes the problem on the socket itself, then closes it as Node does. Bound to the Fastify instance by Fastify.
 */
export function problemOnClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = clientErrorProblem(error);
  const requestId = crypto.randomUUID();
  this.log.info({ code: appError.code, status: appError.status, detail: appError.message, requestId, reason: error.code }, 'client error');
  // Once a response to this socket has started, a second one would corrupt it: only closing is left.
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const body = JSON.stringify(problemBody(appError, requestId));
    socket.write(
      `HTTP/1.1 ${appError.status} ${http.STATUS_CODES[appError.status]}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
