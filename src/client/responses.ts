/** What the service answers, as the OpenAPI document describes it. */

/** The synchronous answer of a processing request (no `webhook`, no `respondAsync`). */
export interface SyncResult {
  /** The result image, base64-encoded. */
  base64: string;
  status: 'success';
}

/**
 * The pending acknowledgement of a processing request sent with `webhook` or `respondAsync`. Besides `status`, `id`
 * and `mode`, an endpoint echoes what the spec lists for it.
 */
export interface Acknowledgement {
  status: 'pending';
  /** Job id, for getJob() and waitForJob(). */
  id: string;
  mode: string;
  styleId?: string;
  roomId?: string;
  creativity?: number;
  skyId?: string;
  /** refresh: echo of the request. */
  transformation?: 'walls' | 'floor';
  /** refresh: echo of the request. */
  value?: string;
}

export type JobStatus = 'pending' | 'success' | 'failed';

/** A job as GET /v1/job/{id} shows it. */
export interface Job {
  id: string;
  status: JobStatus;
  /** URL of the result image once the job succeeded, until it expires; it needs no API key. */
  output?: string;
  mode: string;
  createdAt: string;
  completedAt?: string;
  /** 0 to 1. */
  progress: number;
  /** Why a failed job failed; `code` is one of the stable error codes. */
  error?: { code: string; message: string };
  /** What the operation reports: the engine used, what was removed or blurred, whether the sky was replaced, ... */
  result?: Record<string, unknown>;
  /** Credits the job costs, on servers that report them (test keys cost 0). */
  credits?: number;
  /** While the job runs and has reported progress: the seconds it should still take (an extrapolation). */
  estimatedSecondsLeft?: number;
}

/** A page of GET /v1/jobs: the caller's jobs, newest first. */
export interface JobList {
  jobs: Job[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  next?: string;
}

/** What listJobs() asks for; every field is optional. */
export interface JobListQuery {
  /** Jobs per page, 1 to 100 (server default 20). */
  limit?: number;
  /** The `next` of the previous page. */
  cursor?: string;
  status?: JobStatus;
  /** An operation's path name, e.g. `upscale`. */
  operation?: string;
}

export interface Style {
  id: string;
  name: string;
}

export interface Room {
  id: string;
  /** French label. */
  name: string;
  /** English label. */
  'name-en': string;
  type: string;
}

export interface Furniture {
  id: string;
  name: string;
  name_en: string;
  name_es: string;
  name_pt: string;
  name_de: string;
  /** The name of the group that holds it. */
  type: string;
}

export interface Sky {
  id: string;
  name: string;
}

/** A downloaded result image. */
export interface DownloadedImage {
  bytes: Uint8Array;
  /** As the server sent it, e.g. `image/jpeg`. */
  contentType: string;
}
