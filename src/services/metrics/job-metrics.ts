import type { DeliveryStatus, JobQueueName } from '../../repositories/database/schema.js';
import { JOB_DURATION_BOUNDS } from '../../repositories/job-tallies.js';
import type { MetricsRepository } from '../../repositories/metrics-repository.js';
import { gaugeFamily, type MetricFamily } from './metric-family.js';
import { histogramFamily } from './histogram.js';

const QUEUES: readonly JobQueueName[] = ['light', 'heavy'];
const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/**
 * The jobs and webhooks as the database holds them, so every process reports the same figures: queue depth and
 * running jobs per queue, jobs by state and operation, how long settled jobs ran, webhook deliveries by status.
 */
export function jobMetrics(repository: MetricsRepository, now: () => Date = () => new Date()): () => Promise<MetricFamily[]> {
  return async () => {
    const [queues, jobs, durations, deliveries] = await Promise.all([
      repository.queueCounts(now().toISOString()),
      repository.jobCounts(),
      repository.durationBuckets(),
      repository.webhookDeliveryCounts(),
    ]);
    // Every queue and delivery status is reported, at 0 when empty, so a series never vanishes from a graph.
    const byQueue = (queue: JobQueueName) => queues.find((q) => q.queue === queue);
    return [
      gaugeFamily(
        'roomcraft_queue_depth',
        'Jobs pending and not held by any worker (never claimed, or their claim lapsed), per queue.',
        QUEUES.map((queue) => ({ labels: { queue }, value: byQueue(queue)?.waiting ?? 0 })),
      ),
      gaugeFamily(
        'roomcraft_jobs_running',
        'Jobs a worker holds a live claim on, per queue.',
        QUEUES.map((queue) => ({ labels: { queue }, value: byQueue(queue)?.running ?? 0 })),
      ),
      gaugeFamily(
        'roomcraft_jobs',
        'Jobs in the database by state (pending includes running) and operation.',
        jobs.map((row) => ({ labels: { state: row.status, operation: row.operation }, value: row.count })),
      ),
      histogramFamily(
        'roomcraft_job_duration_seconds',
        'How long settled jobs ran (start of the attempt that settled to completion), per operation, over every job the database holds.',
        JOB_DURATION_BOUNDS,
        durations.map((d) => ({ labels: { operation: d.operation }, cumulativeCounts: d.cumulativeCounts, sum: d.sumSeconds, count: d.count })),
      ),
      gaugeFamily(
        'roomcraft_webhook_deliveries',
        'Webhook deliveries by status: pending (not yet accepted, retries to come), delivered, failed (retries exhausted).',
        DELIVERY_STATUSES.map((status) => ({ labels: { status }, value: deliveries.find((d) => d.status === status)?.count ?? 0 })),
      ),
    ];
  };
}
