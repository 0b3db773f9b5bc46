/**
 * `npm run cluster`: 2 API processes and 2 workers on this machine, with PostgreSQL, Redis and a local S3-compatible
 * server, to try a multi-process deployment (docs/deployment.md). Ctrl-C stops everything.
 */
import { createKey, startCluster } from './cluster.js';

const cluster = await startCluster({
  apis: 2,
  workers: 2,
  basePort: Number(process.env.ROOMCRAFT_CLUSTER_PORT ?? 8081),
  databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  databaseSchema: process.env.ROOMCRAFT_DATABASE_SCHEMA ?? 'roomcraft_cluster',
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  redisPrefix: process.env.ROOMCRAFT_REDIS_PREFIX ?? 'roomcraft-cluster',
  env: {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    ROOMCRAFT_WORKER_THREADS: process.env.ROOMCRAFT_WORKER_THREADS ?? '1',
    ROOMCRAFT_FETCH_ALLOW: process.env.ROOMCRAFT_FETCH_ALLOW ?? '',
  },
});
const key = await createKey(cluster, 'cluster@example.com');
process.stdout.write(
  [
    'Roomcraft cluster running:',
    ...cluster.processes.map((p) => `  ${p.name.padEnd(9)} ${p.url}  (log: ${p.logFile})`),
    `  S3         ${cluster.s3.endpoint}/${cluster.s3.bucket}`,
    `  API key    ${key}`,
    '',
    `Try: curl -s ${cluster.apiUrls[0]}/v1/upscale -H "Authorization: Bearer ${key}" -H 'content-type: application/json' \\`,
    `       -d '{"url":"https://<a photo of a room>.jpg"}'   (a photo on this machine: ROOMCRAFT_FETCH_ALLOW=127.0.0.1/32)`,
    'Ctrl-C stops every process.',
    '',
  ].join('\n'),
);
await new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});
await cluster.stop();
