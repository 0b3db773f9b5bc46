/**
 * The one error type of the service. `code` is stable and documented in docs/api.md; clients branch on it.
 * The HTTP layer turns it into application/problem+json; a failed job stores `code` and `message`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly extra: {
      fieldErrors?: FieldError[];
      jobId?: string;
      retryAfterSeconds?: number;
      /** A refused charge: what the request costs and the balance it found (members of the problem). */
      credits?: { cost: number; balance: number };
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** Plain form that crosses worker-thread boundaries and the database. */
  toJSON(): SerializedError {
    return { code: this.code, status: this.status, message: this.message };
  }

  static from(serialized: SerializedError): AppError {
    return new AppError(serialized.code, serialized.status, serialized.message);
  }
}

export interface FieldError {
  field: string;
  message: string;
}

export interface SerializedError {
  code: ErrorCode;
  status: number;
  message: string;
}

export const ERROR_TITLES = {
  validation_failed: 'The request is not valid',
  malformed_request: 'The request is not valid HTTP',
  unauthorized: 'Missing or invalid API key',
  session_required: 'Log in first',
  invalid_credentials: 'Wrong email or password',
  csrf_failed: 'Missing or wrong CSRF token or origin',
  email_taken: 'An account with this email exists',
  licence_required: 'A licence is needed for production keys',
  not_found: 'Not found',
  route_not_found: 'No such route',
  rate_limited: 'Too many requests',
  insufficient_credits: 'The balance does not cover this request',
  addon_not_in_plan: 'The plan does not include this add-on',
  test_key_daily_limit: 'The test keys’ daily job limit is reached',
  idempotency_key_reused: 'Idempotency key reused with a different request',
  idempotency_key_invalid: 'Invalid Idempotency-Key header',
  operation_unavailable: 'This operation is not available on this server',
  unknown_style: 'Unknown style id',
  unknown_room: 'Unknown room id',
  unknown_furniture: 'Unknown furniture id',
  fetch_refused: 'The image address is not allowed',
  webhook_refused: 'The webhook address is not allowed',
  fetch_failed: 'The image could not be fetched',
  fetch_too_large: 'The image file is too large',
  fetch_timeout: 'Fetching the image took too long',
  too_many_redirects: 'Too many redirects',
  unsupported_image_format: 'Unsupported image format',
  invalid_image: 'The image could not be decoded',
  image_too_large: 'The image has too many pixels',
  output_too_large: 'The result would have too many pixels',
  mask_size_mismatch: 'The mask does not have the image dimensions',
  input_missing: 'The stored input image is gone',
  no_room_for_furniture: 'There is no room for the furniture',
  layout_uncertain: 'The room’s layout in the photo is too uncertain to furnish',
  renderer_unavailable: 'The 3D renderer is not installed',
  render_failed: 'Rendering failed',
  sync_timeout: 'The result was not ready in time',
  job_timeout: 'The job took too long',
  job_aborted: 'The job was aborted',
  job_cancelled: 'The job was cancelled',
  job_not_cancellable: 'The job can no longer be cancelled',
  processing_failed: 'Processing failed',
  request_timeout: 'The request took too long to arrive',
  payload_too_large: 'Request body too large',
  uri_too_long: 'The URL is too long',
  unsupported_media_type: 'The request body must be JSON',
  origin_not_allowed: 'This origin may not call the API from a browser',
  header_fields_too_large: 'The request header fields are too large',
  internal_error: 'Internal server error',
  service_unavailable: 'Service unavailable',
} as const;

export type ErrorCode = keyof typeof ERROR_TITLES;
