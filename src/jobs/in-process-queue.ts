import type { Logger } from 'pino';
import type { JobQueue } from '../services/job-service.js';

/**
 * The embedded queue: job ids in memory, handed to the processor as capacity allows. The database stays the source
 * of truth, so a lost id costs nothing: the sweep and the start-up recovery put pending jobs back.
 */
export class InProcessQueue implements JobQueue {
  private readonly waiting: string[] = [];
  private readonly held = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private paused = false;

  constructor(
    private readonly handle: (jobId: string) => Promise<void>,
    private readonly concurrency: number,
    private readonly logger: Logger,
  ) {}

  get depth(): number {
    return this.waiting.length;
  }

  get active(): number {
    return this.running.size;
  }

  /** One process runs everything, so both queues are one here. */
  enqueue(jobId: string): void {
    if (this.paused || this.held.has(jobId)) return;
    this.held.add(jobId);
    this.waiting.push(jobId);
    this.drain();
  }

  /** Stops taking jobs and waits for the running ones to end. */
  async close(): Promise<void> {
    this.paused = true;
    this.waiting.length = 0;
    await Promise.allSettled([...this.running]);
  }

  private drain(): void {
    while (!this.paused && this.running.size < this.concurrency && this.waiting.length > 0) {
      const jobId = this.waiting.shift()!;
      const run: Promise<void> = this.handle(jobId)
        .catch((error: unknown) => this.logger.error({ err: error, jobId }, 'job handler failed'))
        .finally(() => {
          this.running.delete(run);
          this.held.delete(jobId);
          this.drain();
        });
      this.running.add(run);
    }
  }
}
