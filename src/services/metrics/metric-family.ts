/** Label names to values of one time series, e.g. `{ queue: 'heavy' }`. */
export type Labels = Readonly<Record<string, string>>;

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One line of the exposition: a histogram's family `x` has samples named `x_bucket`, `x_sum` and `x_count`. */
export interface Sample {
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

/** A metric as Prometheus knows it: a name, its help text, its type, and its samples at the time of the scrape. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: MetricType;
  readonly samples: readonly Sample[];
}

/** A gauge family from values read at the time of the scrape (database counts, process memory). */
export function gaugeFamily(name: string, help: string, series: readonly { labels?: Labels; value: number }[]): MetricFamily {
  return { name, help, type: 'gauge', samples: series.map(({ labels = {}, value }) => ({ name, labels, value })) };
}
