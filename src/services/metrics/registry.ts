import type { MetricFamily } from './metric-family.js';
import { renderExposition } from './exposition.js';

/** Produces metric families at the time of a scrape: a counter's current values, or counts read from the database. */
export type Collector = () => MetricFamily[] | Promise<MetricFamily[]>;

/** What GET /metrics renders: the families of every collector, in the order they were added. */
export class MetricsRegistry {
  private readonly collectors: Collector[] = [];

  add(collector: Collector): this {
    this.collectors.push(collector);
    return this;
  }

  async render(): Promise<string> {
    const families = await Promise.all(this.collectors.map((collect) => collect()));
    return renderExposition(families.flat());
  }
}
