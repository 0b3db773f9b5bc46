import type { MetricsRepository } from '../../repositories/metrics-repository.js';
import { MetricsRegistry } from './registry.js';
import { PROCESS_COUNTERS } from './process-counters.js';
import { processMetrics } from './process-metrics.js';
import { jobMetrics } from './job-metrics.js';

/** Everything GET /metrics reports: jobs and webhooks from the database, this process's counters and basics. */
export function createServiceMetrics(repository: MetricsRepository): MetricsRegistry {
  return new MetricsRegistry()
    .add(jobMetrics(repository))
    .add(() => PROCESS_COUNTERS.map((counter) => counter.collect()))
    .add(processMetrics);
}
