import type { Labels, MetricFamily } from './metric-family.js';

/**
 * A counter kept in this process: it only goes up, and starts again from zero when the process does (Prometheus's
 * rate() and increase() take such resets in their stride). Every series carries the same label names.
 */
export class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[] = [],
  ) {
    if (!name.endsWith('_total')) throw new Error(`counter ${name} must end in _total`);
  }

  inc(labels: Labels = {}, by = 1): void {
    if (by < 0) throw new Error(`counter ${this.name} cannot go down (asked to add ${by})`);
    const names = Object.keys(labels);
    if (names.length !== this.labelNames.length || !this.labelNames.every((n) => n in labels)) {
      throw new Error(`counter ${this.name} takes the labels ${this.labelNames.join(', ') || '(none)'}, got ${names.join(', ') || '(none)'}`);
    }
    // Keyed in the declared label order, so { a, b } and { b, a } are one series.
    const ordered = Object.fromEntries(this.labelNames.map((n) => [n, labels[n]!]));
    const key = JSON.stringify(ordered);
    const series = this.values.get(key) ?? { labels: ordered, value: 0 };
    series.value += by;
    this.values.set(key, series);
  }

  collect(): MetricFamily {
    return {
      name: this.name,
      help: this.help,
      type: 'counter',
      samples: [...this.values.values()].map(({ labels, value }) => ({ name: this.name, labels, value })),
    };
  }
}
