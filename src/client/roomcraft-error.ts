/** An `application/problem+json` body (RFC 9457) as Roomcraft sends it. */
export interface Problem {
  /** `urn:roomcraft:problem:<code>`. */
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Stable machine-readable code (docs/api.md lists them); branch on this. */
  code: string;
  requestId?: string;
  /** Field errors of a validation failure, as JSON pointers into the request. */
  errors?: { field: string; message: string }[];
  /** The job concerned, when one exists (after a sync timeout, or a synchronous job that failed). */
  jobId?: string;
}

/**
 * The one error the client raises for an answer of the server that is not 2xx (and for a 2xx body it cannot read).
 * Failures below HTTP keep fetch's own errors: a TypeError for a network failure, a DOMException named
 * `TimeoutError` past the timeout, `AbortError` when the caller's signal aborts.
 */
export class RoomcraftError extends Error {
  constructor(
    readonly problem: Problem,
    /** The HTTP response, for its headers (Retry-After, X-Request-Id, ...); its body has been read. */
    readonly response?: Response,
  ) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'RoomcraftError';
  }

  get status(): number {
    return this.problem.status;
  }

  get code(): string {
    return this.problem.code;
  }

  get detail(): string {
    return this.problem.detail;
  }
}

/**
 * The problem of an error response: its problem+json body, or, when something between us and the service answered
 * (a proxy's HTML page), a problem made of the status and the start of the body, with code `unexpected_response`.
 */
export async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    if (body && typeof body === 'object' && typeof body.code === 'string') {
      return {
        ...body,
        type: typeof body.type === 'string' ? body.type : `urn:roomcraft:problem:${body.code}`,
        title: typeof body.title === 'string' ? body.title : response.statusText,
        status: typeof body.status === 'number' ? body.status : response.status,
        detail: typeof body.detail === 'string' ? body.detail : '',
        code: body.code,
      };
    }
  } catch {
    // Not JSON: described below.
  }
  return unexpectedResponse(response, text.trim().slice(0, 300) || `HTTP ${response.status} ${response.statusText}`.trim());
}

export function unexpectedResponse(response: Response, detail: string): Problem {
  return {
    type: 'about:blank',
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    detail,
    code: 'unexpected_response',
  };
}
