/**
 * Table types. Times are ISO 8601 UTC strings with milliseconds (they sort as text on both engines);
 * JSON documents are stored as text so SQLite and PostgreSQL behave alike.
 */
export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  stored_inputs: StoredInputsTable;
}

export interface UsersTable {
  id: string;
  email: string;
  /** Standard Webhooks secret, `whsec_` + base64 of 32 random bytes. */
  webhook_secret: string;
  created_at: string;
}

export type KeyKind = 'test' | 'live';

export interface ApiKeysTable {
  id: string;
  user_id: string;
  kind: KeyKind;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  key_hash: string;
  /** First characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export type JobStatus = 'pending' | 'success' | 'failed';

export interface JobsTable {
  id: string;
  user_id: string;
  key_kind: KeyKind;
  operation: string;
  mode: string;
  status: JobStatus;
  /** JSON: the validated request (services/job-service.ts StoredRequest); data: URL inputs are in storage instead. */
  request: string;
  webhook_url: string | null;
  credits: number;
  attempts: number;
  progress: number;
  /** JSON: what the operation reports besides the image (engine used, objects removed, ...). */
  result: string | null;
  output_key: string | null;
  output_content_type: string | null;
  error_code: string | null;
  error_status: number | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  output_expires_at: string | null;
  /** The worker process holding the job's claim, while one does. */
  lease_owner: string | null;
  /** When that claim lapses unless renewed; a lapsed claim lets another worker take the job. */
  lease_expires_at: string | null;
  /** The queue the job runs from: heavy work (renders) can have machines of its own. */
  queue: JobQueueName;
}

export type JobQueueName = 'light' | 'heavy';

/** An input a client sent as a data: URL, kept in storage until its job settles. */
export interface StoredInputsTable {
  /** Its storage key, `input-<job id>-image` or `input-<job id>-mask`. */
  key: string;
  /** Its job. Recorded before the job is written, so a job that never came to be leaves a record with no job. */
  job_id: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  job_id: string;
  created_at: string;
  expires_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  /** Also the `webhook-id` header: stable across retries so receivers can deduplicate. */
  id: string;
  job_id: string;
  user_id: string;
  url: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  last_response_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
}
