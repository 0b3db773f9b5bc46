import type { Labels, MetricFamily } from './metric-family.js';

/** The media type of the Prometheus text exposition format this module writes. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The Prometheus text exposition format 0.0.4: per family a `# HELP` and a `# TYPE` line, then one line per sample,
 * `name{label="value",...} number`, and a final line feed.
 */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(`${sample.name}${renderLabels(sample.labels)} ${formatValue(sample.value)}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderLabels(labels: Labels): string {
  const pairs = Object.entries(labels);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(',')}}`;
}

/** Label values escape backslash, double quote and line feed; help texts escape backslash and line feed. */
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** Go's float syntax as Prometheus reads it: `+Inf`, `-Inf`, `NaN`, otherwise the shortest decimal. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
