import { gaugeFamily, type MetricFamily } from './metric-family.js';

/** When this process started, in Unix seconds (from the monotonic uptime, so a clock change does not move it). */
const startTimeSeconds = Date.now() / 1000 - process.uptime();

/** Process basics, under the names Prometheus's own client libraries use, plus the uptime spelled out. */
export function processMetrics(): MetricFamily[] {
  const cpu = process.cpuUsage();
  return [
    gaugeFamily('process_resident_memory_bytes', 'Resident memory of this process, in bytes.', [{ value: process.memoryUsage.rss() }]),
    gaugeFamily('process_start_time_seconds', 'When this process started, in Unix seconds.', [{ value: Math.round(startTimeSeconds) }]),
    gaugeFamily('roomcraft_uptime_seconds', 'Seconds since this process started.', [{ value: Math.round(process.uptime()) }]),
    {
      name: 'process_cpu_seconds_total',
      help: 'CPU time this process used (user and system), in seconds.',
      type: 'counter',
      samples: [{ name: 'process_cpu_seconds_total', labels: {}, value: (cpu.user + cpu.system) / 1e6 }],
    },
  ];
}
