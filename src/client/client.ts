import { send, sendJson } from './http.js';
import { resolveOptions, type CallOptions, type ClientOptions, type ProcessingOptions, type Settings } from './options.js';
import type { OperationName, Requests } from './requests.js';
import type { Acknowledgement, DownloadedImage, Furniture, Job, JobList, JobListQuery, Room, Sky, Style, SyncResult } from './responses.js';
import { pollJob, type WaitOptions } from './wait-for-job.js';

/**
 * A processing method. With `webhook` in the request or `respondAsync: true` in the options the answer is the
 * pending acknowledgement, at once; otherwise the call waits for the image (up to the server's sync wait, 300 s by
 * default, then a RoomcraftError `sync_timeout` carrying `jobId`).
 */
export interface OperationMethod<R> {
  (request: R & { webhook: string }, options?: ProcessingOptions): Promise<Acknowledgement>;
  (request: R, options: ProcessingOptions & { respondAsync: true }): Promise<Acknowledgement>;
  (request: R, options?: ProcessingOptions): Promise<SyncResult>;
}

/**
 * A typed client of the Roomcraft Image Design API, on Node's fetch:
 *
 * ```ts
 * const client = new RoomcraftClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.ROOMCRAFT_API_KEY });
 * const { base64 } = await client.upscale({ url: imageDataUrl(await fs.readFile('room.jpg')), scale: 2 });
 *
 * const { id } = await client.enhancer({ url, sky_fix: true }, { respondAsync: true });
 * const job = await client.waitForJob(id, { onProgress: (j) => console.log(j.progress) });
 * if (job.status === 'success') await fs.writeFile('out.jpg', (await client.download(job.output!)).bytes);
 * ```
 *
 * Every answer that is not 2xx rejects with a RoomcraftError carrying the problem (`type`, `title`, `status`,
 * `detail`, `code`, ...). Method names are the paths in camel case; OPERATIONS in ./operations.ts maps them.
 */
export class RoomcraftClient {
  private readonly settings: Settings;

  constructor(options: ClientOptions) {
    this.settings = resolveOptions(options);
  }

  /** POST /v1/creative-redesign: a room redesigned in a style. */
  readonly creativeRedesign = this.method('creative-redesign');
  /** POST /v1/furnish: furniture added to an empty room, optionally inside a mask. */
  readonly furnish = this.method('furnish');
  /** POST /v1/smart-staging-v2: an empty room furnished automatically. */
  readonly smartStagingV2 = this.method('smart-staging-v2');
  /** POST /v1/smart-staging: the legacy staging. */
  readonly smartStaging = this.method('smart-staging');
  /** POST /v1/declutter: objects removed, automatically or inside a mask. */
  readonly declutter = this.method('declutter');
  /** POST /v1/upscale: ×2 or ×3. */
  readonly upscale = this.method('upscale');
  /** POST /v1/upscale_advanced: ×2, ×4 or ×6. */
  readonly upscaleAdvanced = this.method('upscale_advanced');
  /** POST /v1/enhancer: exposure, contrast and colour; optionally sky and privacy. */
  readonly enhancer = this.method('enhancer');
  /** POST /v1/sunshine (extension): a chosen sky and the light lifted to suit it. */
  readonly sunshine = this.method('sunshine');
  /** POST /v1/redesign (extension matching the public twin): a redesign at a creativity level, optionally only inside a mask. */
  readonly redesign = this.method('redesign');
  /** POST /v1/refresh (extension matching the public twin): walls repainted or floor relaid, nothing else changed. */
  readonly refresh = this.method('refresh');

  /** Any processing operation by its path name; the named methods above are this with their types. */
  process<K extends OperationName>(
    operation: K,
    request: Requests[K],
    options: ProcessingOptions = {},
  ): Promise<SyncResult | Acknowledgement> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.respondAsync) headers.prefer = 'respond-async';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    return sendJson(this.settings, {
      method: 'POST',
      path: `v1/${operation}`,
      body: request,
      headers,
      signal: options.signal,
      authenticate: true,
      // Without an idempotency key a second attempt could create a second job.
      retryable: options.idempotencyKey !== undefined,
    });
  }

  /** GET /v1/job/{id}. */
  getJob(id: string, options: CallOptions = {}): Promise<Job> {
    return this.get(`v1/job/${encodeURIComponent(id)}`, options);
  }

  /** GET /v1/jobs (extension): a page of the caller's jobs, newest first; pass `next` back as `cursor`. */
  listJobs(query: JobListQuery = {}, options: CallOptions = {}): Promise<JobList> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const search = params.size > 0 ? `?${params}` : '';
    return this.get(`v1/jobs${search}`, options);
  }

  /**
   * DELETE /v1/job/{id} (extension): cancels a job no worker has started; resolves with the job, failed with the code
   * `job_cancelled`. A running or settled job rejects with a RoomcraftError `job_not_cancellable` (409). Not retried:
   * a retry after a cancel that went through would answer 409.
   */
  cancelJob(id: string, options: CallOptions = {}): Promise<Job> {
    return sendJson(this.settings, {
      method: 'DELETE',
      path: `v1/job/${encodeURIComponent(id)}`,
      headers: options.headers,
      signal: options.signal,
      authenticate: true,
      retryable: false,
    });
  }

  /** Reads the job every `interval` ms until it settles; resolves with it, succeeded or failed (see pollJob). */
  waitForJob(id: string, options: WaitOptions = {}): Promise<Job> {
    return pollJob((call) => this.getJob(id, call), options.interval ?? this.settings.pollInterval, options);
  }

  /** The result image behind a job's `output` URL (absolute, or relative to the base URL). No API key is sent. */
  async download(output: string, options: CallOptions = {}): Promise<DownloadedImage> {
    const response = await send(this.settings, {
      method: 'GET',
      path: output,
      headers: { accept: 'image/*', ...options.headers },
      signal: options.signal,
      authenticate: false,
      retryable: true,
    });
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  /** GET /v1/styles: the ids accepted as `styleId`. */
  styles(options: CallOptions = {}): Promise<Style[]> {
    return this.get('v1/styles', options);
  }

  /** GET /v1/rooms: the ids accepted as `roomId`. */
  rooms(options: CallOptions = {}): Promise<Room[]> {
    return this.get('v1/rooms', options);
  }

  /** GET /v1/furnitures: the ids accepted as `furnitureId`, grouped by category name. */
  furnitures(options: CallOptions = {}): Promise<Record<string, Furniture[]>> {
    return this.get('v1/furnitures', options);
  }

  /** GET /v1/skies. */
  skies(options: CallOptions = {}): Promise<Sky[]> {
    return this.get('v1/skies', options);
  }

  /** GET /v1/openapi.json: the OpenAPI 3.1 document of the server (needs no key). */
  openApi(options: CallOptions = {}): Promise<Record<string, unknown>> {
    return this.get('v1/openapi.json', options);
  }

  private get<T>(path: string, options: CallOptions): Promise<T> {
    return sendJson<T>(this.settings, {
      method: 'GET',
      path,
      headers: options.headers,
      signal: options.signal,
      authenticate: true,
      retryable: true,
    });
  }

  private method<K extends OperationName>(operation: K): OperationMethod<Requests[K]> {
    return ((request: Requests[K], options?: ProcessingOptions) => this.process(operation, request, options)) as OperationMethod<
      Requests[K]
    >;
  }
}
