import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { NewDelivery, WebhookDelivery, WebhookRepository } from '../repositories/webhook-repository.js';
import type { GuardedFetcher } from '../repositories/fetcher/guarded-fetcher.js';
import { webhookHeaders } from '../security/webhook-signature.js';
import { AppError } from '../errors.js';

/** Sends one request: the guarded fetcher's `post`, which rejects when the address is refused or the network fails. */
export type WebhookTransport = Pick<GuardedFetcher, 'post'>;

export interface WebhookServiceDeps {
  repository: WebhookRepository;
  transport: WebhookTransport;
  /** The user's Standard Webhooks secret (`whsec_...`). */
  secrets: (userId: string) => Promise<string>;
  config: Config['webhooks'];
  logger: Logger;
  now?: () => Date;
  /** Source of the retry jitter, in [0, 1). */
  random?: () => number;
}

export interface WebhookRequest {
  jobId: string;
  userId: string;
  url: string;
  payload: object;
}

type Outcome = { kind: 'delivered'; status: number } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

const CONCURRENCY = 4;
// A claimed delivery becomes claimable again this long after its send would have timed out: ample for the database
// writes that follow a send, so only a process that died mid-send gives its deliveries up.
const LEASE_MARGIN_MS = 60_000;
const GONE = 410;

/**
 * Delivers job notifications with retries. State lives in the database (attempt count, next attempt time), so any
 * process running the dispatcher, including one started after a crash, carries on where the last one stopped.
 */
export class WebhookService {
  private readonly now: () => Date;
  private readonly random: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** Send slots taken, counting those reserved by a claim still under way, so overlapping passes stay within CONCURRENCY. */
  private busy = 0;
  private readonly passes = new Set<Promise<void>>();

  constructor(private readonly deps: WebhookServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.random = deps.random ?? Math.random;
  }

  /**
   * A delivery due now, not yet written: the job processor writes it in the transaction that settles the job, so the
   * job and its announcement are recorded together. Its id is also the `webhook-id` header.
   */
  newDelivery(request: WebhookRequest): NewDelivery {
    const now = this.now().toISOString();
    return {
      id: `msg_${randomBytes(16).toString('base64url')}`,
      jobId: request.jobId,
      userId: request.userId,
      url: request.url,
      payload: JSON.stringify(request.payload),
      nextAttemptAt: now,
      createdAt: now,
    };
  }

  /** Records a delivery due now and returns its id; when this process runs the dispatcher, the first attempt starts at once. */
  async enqueue(request: WebhookRequest): Promise<string> {
    const delivery = this.newDelivery(request);
    await this.deps.repository.createDelivery(delivery);
    this.wake();
    return delivery.id;
  }

  /**
   * Sends what is due now rather than at the next poll (a delivery was just recorded). Does nothing in a process that
   * does not run the dispatcher: a dispatcher elsewhere picks the delivery up on its next poll.
   */
  wake(): void {
    this.poke();
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.poke(), this.deps.config.pollIntervalMs);
    this.timer.unref();
    // Deliveries a previous process left due go out now rather than after the first interval.
    this.poke();
  }

  /** Stops polling and waits for the sends under way; deliveries still pending stay for the next start. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    while (this.passes.size > 0) await Promise.all(this.passes);
  }

  /** Sends what is due, as far as free send slots allow, and waits for those sends. */
  async deliverDue(): Promise<void> {
    const sends: Promise<void>[] = [];
    try {
      for (let batch = await this.claim(); batch.length > 0; batch = await this.claim()) {
        sends.push(...batch.map((delivery) => this.send(delivery)));
      }
    } finally {
      // Even when a later claim fails, so that stop() still waits for every send this pass started.
      await Promise.all(sends);
    }
  }

  private poke(): void {
    if (!this.timer) return;
    const pass = this.deliverDue().catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'webhook dispatch pass failed');
    });
    this.passes.add(pass);
    void pass.finally(() => this.passes.delete(pass));
  }

  private async claim(): Promise<WebhookDelivery[]> {
    const free = CONCURRENCY - this.busy;
    if (free <= 0) return [];
    this.busy += free;
    let claimed: WebhookDelivery[] = [];
    try {
      const now = this.now();
      const leaseUntil = new Date(now.getTime() + this.deps.config.timeoutMs + LEASE_MARGIN_MS);
      claimed = await this.deps.repository.claimDue(now.toISOString(), free, leaseUntil.toISOString());
      return claimed;
    } finally {
      this.busy -= free - claimed.length;
    }
  }

  /** Never rejects, so one delivery's trouble cannot stop the others of its pass. */
  private async send(delivery: WebhookDelivery): Promise<void> {
    try {
      await this.attempt(delivery);
    } catch (error) {
      // Its lease runs out and the attempt is made again, by this process or another.
      this.deps.logger.error({ err: error, deliveryId: delivery.id, jobId: delivery.job_id }, 'webhook attempt not recorded');
    } finally {
      this.busy -= 1;
      // A slot is free: take on whatever else is due without waiting for the next poll.
      this.poke();
    }
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const { repository, transport, config, logger } = this.deps;
    const attempt = delivery.attempts + 1;
    const attemptedAt = this.now();
    const started = performance.now();
    let responseStatus: number | null = null;
    let error: string | null = null;
    try {
      const secret = await this.deps.secrets(delivery.user_id);
      const timestamp = Math.floor(attemptedAt.getTime() / 1000);
      const headers = webhookHeaders(secret, delivery.id, timestamp, delivery.payload);
      ({ status: responseStatus } = await transport.post(delivery.url, delivery.payload, headers, { timeoutMs: config.timeoutMs }));
    } catch (cause) {
      error =
        cause instanceof AppError && cause.code === 'fetch_timeout'
          ? `receiver_timeout: no answer within ${config.timeoutMs} ms; a receiver should answer 2xx at once and process afterwards, deduplicating on webhook-id`
          : describeError(cause);
    }
    const durationMs = Math.round(performance.now() - started);
    await repository.recordAttempt({
      deliveryId: delivery.id,
      attempt,
      attemptedAt: attemptedAt.toISOString(),
      durationMs,
      responseStatus,
      error,
    });

    const outcome = decide(attempt, responseStatus, config, this.random);
    const now = this.now();
    const fields = { deliveryId: delivery.id, jobId: delivery.job_id, attempt, responseStatus, error, durationMs };
    switch (outcome.kind) {
      case 'delivered':
        await repository.markDelivered(delivery.id, attempt, outcome.status, now.toISOString());
        logger.info(fields, 'webhook delivered');
        break;
      case 'retry': {
        const nextAttemptAt = new Date(now.getTime() + outcome.delayMs).toISOString();
        await repository.scheduleRetry(delivery.id, attempt, nextAttemptAt, responseStatus, error, now.toISOString());
        logger.warn({ ...fields, nextAttemptAt }, 'webhook attempt failed, will retry');
        break;
      }
      case 'failed':
        await repository.markFailed(delivery.id, attempt, responseStatus, error, now.toISOString());
        logger.warn(fields, 'webhook delivery failed, giving up');
        break;
    }
  }
}

/** Standard Webhooks semantics: any 2xx is success, 410 Gone means the receiver wants no more, anything else is retried. */
function decide(attempt: number, status: number | null, config: Config['webhooks'], random: () => number): Outcome {
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === GONE) return { kind: 'failed' };
  const baseMs = config.retryDelaysMs[attempt - 1];
  if (baseMs === undefined) return { kind: 'failed' };
  // Jitter spreads the retries of many deliveries that failed together (a receiver outage) over time.
  return { kind: 'retry', delayMs: Math.round(baseMs * (1 + config.jitterRatio * (2 * random() - 1))) };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const detail = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${typeof code === 'string' ? code : error.name}: ${error.message}${detail}`;
}
