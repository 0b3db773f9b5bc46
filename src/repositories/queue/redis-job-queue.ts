import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { JobQueue } from '../../services/job-service.js';
import type { JobQueueName } from '../database/schema.js';

export const QUEUE_NAMES: readonly JobQueueName[] = ['light', 'heavy'];

/**
 * BullMQ options shared by producers and consumers. Entries are removed once handled, so a job id can be queued
 * again later (by the sweep, after a lapsed claim); while one is waiting or active, queueing the same id again is a
 * no-op (BullMQ's job ids are unique per queue).
 */
const ENTRY = { removeOnComplete: true, removeOnFail: true } as const;

/**
 * The producer side: job ids onto BullMQ queues on Redis, one queue per lane. The database stays the source of
 * truth: a failed add is logged and left to the workers' sweep, which queues every unclaimed pending job again.
 */
export class RedisJobQueue implements JobQueue {
  private readonly queues: Record<JobQueueName, Queue>;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    const make = (name: JobQueueName) => {
      const queue = new Queue(name, { connection, prefix });
      // Without a listener, a Redis outage prints raw stack traces; the adds that fail are logged where they fail.
      queue.on('error', (error) => this.logger.debug({ err: error, queue: name }, 'queue connection error'));
      return queue;
    };
    this.queues = { light: make('light'), heavy: make('heavy') };
  }

  enqueue(jobId: string, queue: JobQueueName): void {
    this.queues[queue].add('job', { jobId }, { ...ENTRY, jobId }).catch((error: unknown) => {
      this.logger.warn({ err: error, jobId, queue }, 'could not queue the job; the sweep will');
    });
  }

  /** Entries waiting in each queue (not yet taken by a worker). */
  async depth(): Promise<Record<JobQueueName, number>> {
    const [light, heavy] = await Promise.all(QUEUE_NAMES.map((name) => this.queues[name].getWaitingCount()));
    return { light: light ?? 0, heavy: heavy ?? 0 };
  }

  async close(): Promise<void> {
    await Promise.all(QUEUE_NAMES.map((name) => this.queues[name].close()));
  }
}

/**
 * The consumer side, in worker processes: takes job ids from the lanes this worker serves and hands each to the
 * job processor, whose claim in the database decides whether it runs here. BullMQ's own stall detection puts back
 * the entries of a worker that died; the claim's lease keeps that from ever running a job twice.
 */
export class RedisJobConsumer {
  private readonly workers: Worker[];

  constructor(options: {
    connection: Redis;
    prefix: string;
    queues: readonly JobQueueName[];
    /** Jobs taken at once per lane; renders take the whole machine, so `heavy` is usually 1. */
    concurrency: Record<JobQueueName, number>;
    /** The job claim's lease: an entry of a dead worker returns to the queue on the same schedule as its claim lapses. */
    leaseMs: number;
    handle: (jobId: string) => Promise<void>;
    logger: Logger;
  }) {
    this.workers = options.queues.map((name) => {
      const worker = new Worker<{ jobId: string }>(name, async (entry) => options.handle(entry.data.jobId), {
        connection: options.connection,
        prefix: options.prefix,
        concurrency: options.concurrency[name],
        // BullMQ's default (30 s, checked every 30 s) would hold a dead worker's entry up to a minute after its
        // claim lapsed, and a sweep cannot queue the id again while the stalled entry still holds it.
        lockDuration: options.leaseMs,
        stalledInterval: options.leaseMs,
        // A stalled entry (its worker died) goes back to the queue however often that happens: the job's attempt
        // count in the database, charged only to runs that started, is what gives up on a job.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
      });
      worker.on('error', (error) => options.logger.warn({ err: error, queue: name }, 'queue consumer error'));
      return worker;
    });
  }

  /** Stops taking entries and waits for the ones being handled. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}
