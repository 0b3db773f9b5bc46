import type { Labels, MetricFamily, Sample } from './metric-family.js';
import { formatValue } from './exposition.js';

/** The observations of one histogram series: how many fell at or under each bound (cumulative), their sum and count. */
export interface HistogramSeries {
  labels: Labels;
  /** One count per bound of the family's buckets, in the same order; each includes the counts of the bounds below it. */
  cumulativeCounts: readonly number[];
  sum: number;
  count: number;
}

/**
 * A histogram family: per series, `name_bucket{le="bound"}` for each upper bound and `le="+Inf"` (the count), then
 * `name_sum` and `name_count`.
 */
export function histogramFamily(name: string, help: string, bounds: readonly number[], series: readonly HistogramSeries[]): MetricFamily {
  const samples: Sample[] = [];
  for (const s of series) {
    bounds.forEach((bound, i) => samples.push({ name: `${name}_bucket`, labels: { ...s.labels, le: formatValue(bound) }, value: s.cumulativeCounts[i]! }));
    samples.push({ name: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
    samples.push({ name: `${name}_sum`, labels: s.labels, value: s.sum }, { name: `${name}_count`, labels: s.labels, value: s.count });
  }
  return { name, help, type: 'histogram', samples };
}
