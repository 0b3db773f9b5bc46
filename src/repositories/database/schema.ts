import type { Generated } from 'kysely';

/**
 * Table types. Times are ISO 8601 UTC strings with milliseconds (they sort as text on both engines);
 * JSON documents are stored as text so SQLite and PostgreSQL behave alike.
 */
export interface Database {
  users: UsersTable & UserAccountColumns;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  jobs: JobsTable;
  job_tallies: JobTalliesTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  stored_inputs: StoredInputsTable;
  plans: PlansTable;
  licences: LicencesTable;
  credit_ledger: CreditLedgerTable;
  credit_balances: CreditBalancesTable;
  test_key_usage: TestKeyUsageTable;
}

export interface UsersTable {
  id: string;
  email: string;
  /** Standard Webhooks secret, `whsec_` + base64 of 32 random bytes. */
  webhook_secret: string;
  created_at: string;
}

/** Who made a user: `roomcraft keys create` on the command line, or a sign-up in the browser. */
export type UserOrigin = 'cli' | 'sign_up';

/** The users' columns of accounts in the browser (migration 0005); every user row has them. */
export interface UserAccountColumns {
  /** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (security/password.ts); null until the user sets a password. */
  password_hash: string | null;
  /** 1 for the administrator (the earliest user made from the command line), 0 otherwise: an integer on both engines. */
  is_admin: Generated<number>;
  created_from: Generated<UserOrigin>;
}

/** A browser session of the dashboard. The token lives only in the user's cookie; the row is found by its hash. */
export interface SessionsTable {
  /** SHA-256 of the session token, hex. */
  id: string;
  user_id: string;
  created_at: string;
  /** Renewed at most once a minute while the session is used; a session unused for the idle timeout has ended. */
  last_seen_at: string;
  /** The absolute end of the session, however much it is used. */
  expires_at: string;
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

/**
 * Settled jobs counted by operation, status and duration bucket, written in the transaction that settles each one
 * (job-tallies.ts), so /metrics, /health and the status page read a few rows instead of scanning every job.
 */
export interface JobTalliesTable {
  operation: string;
  status: Exclude<JobStatus, 'pending'>;
  /**
   * Index of the least bound of JOB_DURATION_BOUNDS the job's run time is at or under; the bounds' length past the
   * last; -1 for a job that settled without running (refused before it started, or cancelled).
   */
  duration_bucket: number;
  jobs: number;
  /** The run times of those jobs added up, seconds. */
  seconds: number;
}

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

/** A per-request add-on a plan may allow: operations billed apart from the plan's credits (the spec's wording). */
export type Addon = 'smart-staging' | 'enhancer';

/** What an operator sells: credits each month, and which add-ons its holders may use. */
export interface PlansTable {
  name: string;
  monthly_credits: number;
  /** JSON array of Addon. */
  addons: string;
  created_at: string;
  updated_at: string;
}

/**
 * A user's subscription to a plan, from `starts_at` (the anniversary of its monthly periods) until `ends_at` (open
 * when null). Granted by an administrator; a payment processor would write the same row, its subscription id in
 * `external_ref`.
 */
export interface LicencesTable {
  id: string;
  user_id: string;
  plan_name: string;
  starts_at: string;
  ends_at: string | null;
  /** Who granted it: `cli`, or a payment processor's name. */
  granted_by: string;
  external_ref: string | null;
  created_at: string;
}

export type LedgerEntry = 'grant' | 'charge' | 'refund';

/** One movement of credits; the ledger's sum per user is the balance. */
export interface CreditLedgerTable {
  id: string;
  user_id: string;
  entry: LedgerEntry;
  /**
   * What the line is for: `operation` (an operation's price), `addon:smart-staging` or `addon:enhancer` (a
   * per-request add-on), `monthly` (a period's plan credits) or `one-off` (an administrator's grant).
   */
  item: string;
  /** Signed: grants and refunds positive, charges negative. */
  amount: number;
  /** The balance once this line was written. */
  balance_after: number;
  job_id: string | null;
  operation: string | null;
  reason: string;
  /** Makes a line that must be written once (a period's grant, a job's charge or refund) unique; null otherwise. */
  dedupe_key: string | null;
  created_at: string;
}

/** The sum of a user's ledger, kept with it, so a charge is one conditional UPDATE (see the 0004 migration). */
export interface CreditBalancesTable {
  user_id: string;
  balance: number;
  /** When the next monthly grant of the user's licence falls due; null without a licence that grants more. */
  next_grant_at: string | null;
  updated_at: string;
}

/** Jobs made with a user's test keys on one UTC day (YYYY-MM-DD), for ROOMCRAFT_TEST_DAILY_JOBS. */
export interface TestKeyUsageTable {
  user_id: string;
  day: string;
  jobs: number;
}
