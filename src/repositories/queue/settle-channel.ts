import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Redis pub/sub carrying the ids of settled jobs from the worker processes to the API processes, so a synchronous
 * request answers as soon as its job settles wherever it ran. A missed message costs only latency: waiting requests
 * also re-read the job every second.
 */
export class SettleChannel {
  private readonly channel: string;
  private subscriber: Redis | undefined;

  constructor(
    private readonly publisher: Redis,
    prefix: string,
  ) {
    this.channel = `${prefix}:settled`;
  }

  async publish(jobId: string): Promise<void> {
    await this.publisher.publish(this.channel, jobId);
  }

  /** Calls `onSettled` with each job id published by any process; pub/sub needs a connection of its own. */
  async subscribe(onSettled: (jobId: string) => void, logger: Logger): Promise<void> {
    const subscriber = this.publisher.duplicate();
    // Held before the subscription completes, so close() ends it even while Redis is away.
    this.subscriber = subscriber;
    // ioredis reconnects and subscribes again by itself; each failed reconnection is an 'error' event.
    subscriber.on('error', (error) => logger.debug({ err: error }, 'settle channel connection error'));
    subscriber.on('message', (channel: string, jobId: string) => {
      if (channel === this.channel) onSettled(jobId);
    });
    await subscriber.subscribe(this.channel);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => {});
  }
}
