/**
 * `npm run bench:cluster`: the scale-out measured as an attacker and a flaky network would test it (issue 17), on
 * 2 API processes and 2 workers over PostgreSQL, Redis and a local S3 server (tools/cluster), all on this machine.
 *
 * 1. Chaos: 1,000 cheap jobs (×2 upscale of a small photo) with webhooks, submitted through both API processes with
 *    an Idempotency-Key each (a submission cut by a killed API is retried on the other); a random worker is killed
 *    with SIGKILL every 10 s and restarted, each API process once. Counted: accepted, succeeded, failed, lost, settled
 *    or announced more than once, failed without having run, webhooks. Lookups are timed meanwhile.
 * 2. Hostile bodies (bench/hostile-bodies.ts) fired at both API processes while lookups are timed.
 * 3. Throughput: async submissions per second through both API processes (workers stopped: they would only compete
 *    for the same 2 cores), and a synchronous request's answer time against its job's own processing time.
 * 4. Rate limit: both API processes restarted with the spec's 120 per minute; one user, 150 calls in one minute.
 * Results go to docs/benchmarks.md ("Cluster").
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { createKey, startCluster, type Cluster } from '../tools/cluster/cluster.js';
import { HOSTILE_CASES, sendHostileCase } from './hostile-bodies.js';
import { machineLine, writeSection } from './report.js';

const JOBS = Number(process.env.BENCH_CLUSTER_JOBS ?? 1000);
const KILL_EVERY_MS = 10_000;
/** Users (each with a licensed live key) sharing the throughput phase's connections. */
const USERS = 16;
const SETTLE_DEADLINE_MS = 30 * 60_000;
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SCHEMA = `bench_cluster_${Date.now()}`;
const REDIS_PREFIX = `roomcraft-bench-${crypto.randomBytes(4).toString('hex')}`;

interface Latencies {
  ms: number[];
  errors: number;
  byStatus: Map<number, number>;
}

async function main(): Promise<void> {
  const photos = await startPhotoServer();
  const hooks = await startHookReceiver();
  const cluster = await startCluster({
    apis: 2,
    workers: 2,
    basePort: 19_000 + Math.floor(Math.random() * 500),
    databaseUrl: DATABASE_URL,
    databaseSchema: SCHEMA,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisPrefix: REDIS_PREFIX,
    env: {
      LOG_LEVEL: 'info',
      ROOMCRAFT_FETCH_ALLOW: '127.0.0.1/32',
      ROOMCRAFT_WORKER_THREADS: '1',
      // A killed worker's claims lapse within 10 s and the sweep looks every 5 s: recovery in seconds, not minutes.
      ROOMCRAFT_JOB_LEASE_MS: '10000',
      ROOMCRAFT_SWEEP_INTERVAL_MS: '5000',
      ROOMCRAFT_WEBHOOK_RETRY_DELAYS_MS: '1000,2000,5000,10000,30000',
      // Phases 1–3 measure the service, not the limiter; phase 4 restarts the APIs with the spec's 120.
      ROOMCRAFT_RATE_LIMIT_PER_MINUTE: '100000000',
    },
  });
  const db = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${SCHEMA}`, max: 4 });
  try {
    const key = await createKey(cluster, 'bench@example.com');
    const chaos = await chaosPhase(cluster, key, photos.url, hooks, db);
    const hostile = await hostilePhase(cluster, key);
    const throughput = await throughputPhase(cluster, key, photos.url, hooks.url, db);
    const rateLimit = await rateLimitPhase(cluster);
    const markdown = report(chaos, hostile, throughput, rateLimit);
    writeSection('bench-cluster', markdown);
    process.stdout.write(`${markdown}\n`);
  } finally {
    await cluster.stop();
    await db.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`).catch(() => {});
    await db.end();
    await photos.close();
    await hooks.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Chaos

interface ChaosResult {
  accepted: number;
  submissionRetries: number;
  succeeded: number;
  failed: number;
  failedCodes: Record<string, number>;
  lost: number;
  settledTwice: number;
  ranToEndTwice: number;
  failedWithoutRunning: number;
  announced: number;
  webhookIdsPerJobOverOne: number;
  webhookCopies: number;
  workerKills: number;
  apiKills: number;
  seconds: number;
  lookups: Latencies;
  attemptsHistogram: Record<string, number>;
}

async function chaosPhase(cluster: Cluster, key: string, photoUrl: string, hooks: HookReceiver, db: pg.Pool): Promise<ChaosResult> {
  const started = Date.now();
  const accepted = new Set<string>();
  let submissionRetries = 0;
  let workerKills = 0;
  let apiKills = 0;
  let done = false;

  const lookupTimer = timeLookups(cluster.apiUrls, key);

  // Chaos: a worker every 10 s until every job settled; each API once, early, while submissions flow.
  const chaos = (async () => {
    const apiKillsAt = [3_000, 8_000];
    for (let tick = 0; !done; tick++) {
      await sleep(1_000);
      const elapsed = Date.now() - started;
      while (apiKillsAt.length > 0 && elapsed >= apiKillsAt[0]!) {
        apiKillsAt.shift();
        const name = `api-${apiKills + 1}`;
        await cluster.kill(name);
        apiKills += 1;
        void cluster.start(name).catch((error: unknown) => console.error(`restart of ${name} failed`, error));
      }
      if (tick > 0 && tick % (KILL_EVERY_MS / 1_000) === 0) {
        const name = `worker-${1 + Math.floor(Math.random() * 2)}`;
        await cluster.kill(name);
        workerKills += 1;
        await cluster.start(name).catch((error: unknown) => console.error(`restart of ${name} failed`, error));
      }
    }
  })();

  // Submissions: 16 at a time, each with its own Idempotency-Key, retried on the other API until acknowledged.
  let next = 0;
  const body = (n: number) => JSON.stringify({ url: `${photoUrl}?n=${n}`, webhook: hooks.url });
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let n = next++; n < JOBS; n = next++) {
        const idempotencyKey = crypto.randomUUID();
        for (let tries = 0; ; tries++) {
          const api = cluster.apiUrls[(n + tries) % cluster.apiUrls.length]!;
          const answer = await fetch(`${api}/v1/upscale`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
            body: body(n),
          }).then(
            async (r) => ({ status: r.status, json: (await r.json()) as { id?: string } }),
            () => undefined,
          );
          if (answer?.status === 200 && answer.json.id) {
            accepted.add(answer.json.id);
            break;
          }
          submissionRetries += 1;
          await sleep(200);
        }
      }
    }),
  );

  // Every accepted job settled and announced, or the deadline.
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  for (;;) {
    const { rows } = await db.query<{ pending: string }>(`SELECT count(*) AS pending FROM jobs WHERE status = 'pending'`);
    const announced = [...accepted].filter((id) => hooks.byJob.has(id)).length;
    if ((Number(rows[0]!.pending) === 0 && announced === accepted.size) || Date.now() > deadline) break;
    await sleep(1_000);
  }
  done = true;
  await chaos;
  const lookups = await lookupTimer.stop();
  const seconds = (Date.now() - started) / 1000;

  const { rows } = await db.query<{ id: string; status: string; attempts: number; error_code: string | null }>(
    'SELECT id, status, attempts, error_code FROM jobs',
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const logs = workerLogEvents(cluster);
  const failedCodes: Record<string, number> = {};
  const attemptsHistogram: Record<string, number> = {};
  let succeeded = 0;
  let failed = 0;
  let lost = 0;
  let failedWithoutRunning = 0;
  let settledTwice = 0;
  let ranToEndTwice = 0;
  let webhookIdsPerJobOverOne = 0;
  let webhookCopies = 0;
  for (const id of accepted) {
    const job = byId.get(id);
    if (!job || job.status === 'pending') {
      lost += 1;
      continue;
    }
    attemptsHistogram[String(job.attempts)] = (attemptsHistogram[String(job.attempts)] ?? 0) + 1;
    if (job.status === 'success') succeeded += 1;
    else {
      failed += 1;
      failedCodes[job.error_code ?? '?'] = (failedCodes[job.error_code ?? '?'] ?? 0) + 1;
      if ((logs.started.get(id) ?? 0) === 0) failedWithoutRunning += 1;
    }
    if ((logs.succeeded.get(id) ?? 0) > 1) settledTwice += 1;
    if ((logs.resultReady.get(id) ?? 0) > 1) ranToEndTwice += 1;
    const deliveries = hooks.byJob.get(id);
    if (deliveries) {
      if (deliveries.ids.size > 1) webhookIdsPerJobOverOne += 1;
      webhookCopies += deliveries.copies - 1;
    }
  }
  const announced = [...accepted].filter((id) => hooks.byJob.has(id)).length;
  return {
    accepted: accepted.size,
    submissionRetries,
    succeeded,
    failed,
    failedCodes,
    lost,
    settledTwice,
    ranToEndTwice,
    failedWithoutRunning,
    announced,
    webhookIdsPerJobOverOne,
    webhookCopies,
    workerKills,
    apiKills,
    seconds,
    lookups,
    attemptsHistogram,
  };
}

/**
 * Per job id: how often a worker logged the operation's start, a result ready (before its settle), and a success
 * recorded (after the settle).
 */
function workerLogEvents(cluster: Cluster) {
  const started = new Map<string, number>();
  const resultReady = new Map<string, number>();
  const succeeded = new Map<string, number>();
  const bump = (map: Map<string, number>, id: string) => map.set(id, (map.get(id) ?? 0) + 1);
  for (const member of cluster.processes.filter((p) => p.role === 'worker')) {
    if (!fs.existsSync(member.logFile)) continue;
    for (const line of fs.readFileSync(member.logFile, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry: { msg?: string; jobId?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (!entry.jobId) continue;
      if (entry.msg === 'job started') bump(started, entry.jobId);
      else if (entry.msg === 'job result ready') bump(resultReady, entry.jobId);
      else if (entry.msg === 'job succeeded') bump(succeeded, entry.jobId);
    }
  }
  return { started, resultReady, succeeded };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Hostile bodies

interface HostileResult {
  sent: number;
  /** Cases some of whose sends got no answer (the connection closed under an upload the server had refused). */
  unanswered: string[];
  byStatus: Record<string, number>;
  lookups: Latencies;
  baseline: Latencies;
}

async function hostilePhase(cluster: Cluster, key: string): Promise<HostileResult> {
  // The lookups are of the chaos phase's jobs.
  const quiet = timeLookups(cluster.apiUrls, key);
  await sleep(5_000);
  const baseline = await quiet.stop();

  const loaded = timeLookups(cluster.apiUrls, key);
  // Let the timer pick up its ids before the storm.
  await sleep(2_500);
  const byStatus: Record<string, number> = {};
  const unanswered = new Set<string>();
  let sent = 0;
  // Three rounds of the corpus, two senders per API process at once.
  await Promise.all(
    cluster.apiUrls.flatMap((api) =>
      [0, 1].map(async () => {
        for (let round = 0; round < 3; round++) {
          for (const hostile of HOSTILE_CASES) {
            const outcome = await sendHostileCase(api, key, hostile).then(
              (answer) => String(answer.status),
              () => 'network_error',
            );
            byStatus[outcome] = (byStatus[outcome] ?? 0) + 1;
            if (outcome === 'network_error') unanswered.add(hostile.name);
            sent += 1;
          }
        }
      }),
    ),
  );
  const lookups = await loaded.stop();
  return { sent, byStatus, unanswered: [...unanswered], lookups, baseline };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Throughput and a synchronous request

interface ThroughputResult {
  /** GET /v1/job/{id} while both workers run jobs, nothing killed. */
  busyLookups: Latencies;
  perSecond: number;
  non2xx: number;
  errors: number;
  p99: number;
  syncAnswerMs: number;
  syncJobMs: number;
}

async function throughputPhase(cluster: Cluster, key: string, photoUrl: string, hookUrl: string, db: pg.Pool): Promise<ThroughputResult> {
  const body = JSON.stringify({ url: photoUrl, webhook: hookUrl });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  // Lookups while both workers are busy (no kills): 400 jobs queued at once keep them working throughout.
  await Promise.all(
    Array.from({ length: 400 }, () => fetch(`${cluster.apiUrls[0]}/v1/upscale`, { method: 'POST', headers, body }).then((r) => r.arrayBuffer())),
  );
  const busy = timeLookups(cluster.apiUrls, key);
  await sleep(15_000);
  const busyLookups = await busy.stop();

  await Promise.all(['worker-1', 'worker-2'].map((name) => cluster.kill(name, 'SIGTERM')));
  // Many agencies submit at once: each connection is one of USERS users with a live key, so the measure is the
  // service's, not one user's balance row (each charge of a user updates it in turn).
  const keys = [key, ...(await Promise.all(Array.from({ length: USERS - 1 }, (_, i) => createKey(cluster, `agency-${i}@example.com`))))];
  let connection = 0;
  const fire = (url: string, duration: number) =>
    autocannon({
      url: `${url}/v1/upscale`,
      method: 'POST',
      headers,
      body,
      connections: 32,
      duration,
      setupClient: (client) => client.setHeaders({ ...headers, authorization: `Bearer ${keys[connection++ % keys.length]}` }),
    });
  await Promise.all(cluster.apiUrls.map((url) => fire(url, 2))); // warm-up
  const runs = await Promise.all(cluster.apiUrls.map((url) => fire(url, 10)));
  const perSecond = runs.reduce((sum, r) => sum + r.requests.average, 0);
  const non2xx = runs.reduce((sum, r) => sum + r.non2xx, 0);
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  const p99 = Math.max(...runs.map((r) => r.latency.p99));

  // The submissions above stay queued; a fresh worker with its own lane would run them first, so the synchronous
  // request's answer time is measured on a cleared queue.
  await db.query(`UPDATE jobs SET status = 'failed', error_code = 'bench_cleared', completed_at = now()::text WHERE status = 'pending'`);
  await cluster.start('worker-1');
  await syncUpscale(cluster.apiUrls[0]!, key, photoUrl); // loads the model in the worker
  const timed = await syncUpscale(cluster.apiUrls[1]!, key, photoUrl);
  const { rows } = await db.query<{ started_at: string; completed_at: string }>('SELECT started_at, completed_at FROM jobs WHERE id = $1', [timed.jobId]);
  const syncJobMs = Date.parse(rows[0]!.completed_at) - Date.parse(rows[0]!.started_at);
  return { perSecond, non2xx, errors, p99, syncAnswerMs: timed.ms, syncJobMs, busyLookups };
}

async function syncUpscale(api: string, key: string, photoUrl: string): Promise<{ ms: number; jobId: string }> {
  const started = performance.now();
  const response = await fetch(`${api}/v1/upscale`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: photoUrl }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`synchronous upscale answered ${response.status}`);
  return { ms: performance.now() - started, jobId: response.headers.get('x-job-id') ?? '' };
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Rate limit

interface RateLimitResult {
  calls: number;
  ok: number;
  limited: number;
  other: number;
}

async function rateLimitPhase(cluster: Cluster): Promise<RateLimitResult> {
  await Promise.all(['api-1', 'api-2'].map((api) => cluster.kill(api, 'SIGTERM')));
  cluster.env.ROOMCRAFT_RATE_LIMIT_PER_MINUTE = '120';
  await Promise.all(['api-1', 'api-2'].map((api) => cluster.start(api)));
  const key = await createKey(cluster, 'rate-limit@example.com');
  // The windows are the minutes of the clock: start early in one so the 150 calls fall in it.
  const second = new Date().getUTCSeconds();
  if (second > 30) await sleep((61 - second) * 1000);
  let ok = 0;
  let limited = 0;
  let other = 0;
  const calls = 150;
  await Promise.all(
    Array.from({ length: calls }, async (_, i) => {
      const response = await fetch(`${cluster.apiUrls[i % 2]}/v1/jobs?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status === 200) ok += 1;
      else if (response.status === 429) limited += 1;
      else other += 1;
    }),
  );
  return { calls, ok, limited, other };
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/**
 * Starts timing lookups in a process of its own (bench/cluster-lookups.mjs); `stop()` ends it and returns what it
 * measured. The ids come from GET /v1/jobs of the same key.
 */
function timeLookups(apis: string[], key: string): { stop(): Promise<Latencies> } {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'cluster-lookups.mjs'), JSON.stringify({ apis, key })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      const measured = JSON.parse(output) as { ms: number[]; errors: number; byStatus: Record<string, number> };
      return { ms: measured.ms, errors: measured.errors, byStatus: new Map(Object.entries(measured.byStatus).map(([s, n]) => [Number(s), n])) };
    },
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function startPhotoServer() {
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#b0a890' } })
    .composite([{ input: await sharp({ create: { width: 20, height: 30, channels: 3, background: '#402010' } }).png().toBuffer(), left: 22, top: 10 }])
    .jpeg()
    .toBuffer();
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/room.jpg`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

interface HookReceiver {
  url: string;
  /** Per job id: the distinct webhook-ids received and how many requests in all. */
  byJob: Map<string, { ids: Set<string>; copies: number }>;
  close(): Promise<void>;
}

async function startHookReceiver(): Promise<HookReceiver> {
  const byJob = new Map<string, { ids: Set<string>; copies: number }>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      try {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
        const entry = byJob.get(id) ?? { ids: new Set<string>(), copies: 0 };
        entry.ids.add(String(request.headers['webhook-id']));
        entry.copies += 1;
        byJob.set(id, entry);
      } catch {
        // Not a delivery.
      }
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, byJob, close: () => new Promise<void>((r) => server.close(() => r())) };
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function report(chaos: ChaosResult, hostile: HostileResult, throughput: ThroughputResult, rateLimit: RateLimitResult): string {
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');
  const fiveHundreds = Object.entries(hostile.byStatus)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  const lookupsStatus = (l: Latencies) => [...l.byStatus.entries()].map(([s, n]) => `${n} × ${s}`).join(', ');
  return [
    '## Cluster (`npm run bench:cluster`)',
    '',
    machineLine(),
    `2 API processes and 2 workers (1 worker thread each) as separate \`roomcraft serve\` processes, PostgreSQL, Redis, s3rver for outputs, on the same ${os.cpus().length} cores as the benchmark itself. Lease 10 s, sweep 5 s.`,
    '',
    `### Chaos: ${chaos.accepted.toLocaleString('en')} jobs, kill -9 a random worker every 10 s (${chaos.workerKills} kills) and each API process once (${chaos.apiKills})`,
    '',
    '| Count | Result | Target |',
    '|---|---:|---|',
    `| Accepted (acknowledged ids) | ${chaos.accepted} | ${JOBS} |`,
    `| Submissions retried (API killed under them; same Idempotency-Key) | ${chaos.submissionRetries} | – |`,
    `| Succeeded | ${chaos.succeeded} | |`,
    `| Failed | ${chaos.failed}${chaos.failed > 0 ? ` (${Object.entries(chaos.failedCodes).map(([c, n]) => `${n} ${c}`).join(', ')})` : ''} | |`,
    `| Lost (accepted, never settled) | ${chaos.lost} | 0 |`,
    `| Settled more than once | ${chaos.settledTwice} | 0 |`,
    `| Failed without having run | ${chaos.failedWithoutRunning} | 0 |`,
    `| Announced by webhook | ${chaos.announced} | every job (${chaos.accepted}) |`,
    `| Jobs announced under more than one webhook-id | ${chaos.webhookIdsPerJobOverOne} | 0 |`,
    `| Extra copies of a delivery (at-least-once retries, same webhook-id) | ${chaos.webhookCopies} | – |`,
    `| Operation ran to its end more than once (a worker killed between its result and the settle; one result kept) | ${chaos.ranToEndTwice} | – |`,
    `| Attempts per job | ${Object.entries(chaos.attemptsHistogram).map(([a, n]) => `${n} × ${a}`).join(', ')} | – |`,
    `| Lookups during the chaos (workers busy, processes killed and restarting): p50 / p99 ms | ${ms(percentile(chaos.lookups.ms, 50))} / ${ms(percentile(chaos.lookups.ms, 99))} (${lookupsStatus(chaos.lookups)}; ${chaos.lookups.errors} refused by a killed API) | – |`,
    `| Wall time | ${chaos.seconds.toFixed(0)} s | – |`,
    '',
    `### Hostile bodies: the corpus of bench/hostile-bodies.ts (${HOSTILE_CASES.length} cases) 3 times by 2 senders per API process, ${hostile.sent} requests`,
    '',
    '| | Result | Target |',
    '|---|---:|---|',
    `| Answers by status | ${Object.entries(hostile.byStatus).map(([s, n]) => `${n} × ${s}`).join(', ')} | – |`,
    `| 5xx | ${fiveHundreds} | 0 |`,
    `| Sends without an answer | ${hostile.byStatus.network_error ?? 0}${hostile.unanswered.length > 0 ? ` (${hostile.unanswered.join('; ')}: refused before the upload ended, the connection closed under the sender)` : ''} | – |`,
    `| Lookups before (quiet): p50 / p99 ms | ${ms(percentile(hostile.baseline.ms, 50))} / ${ms(percentile(hostile.baseline.ms, 99))} | – |`,
    `| Lookups under the hostile bodies: p50 / p99 ms | ${ms(percentile(hostile.lookups.ms, 50))} / ${ms(percentile(hostile.lookups.ms, 99))} (${lookupsStatus(hostile.lookups)}) | p99 < 50 |`,
    '',
    '### Throughput and a synchronous request through the api role',
    '',
    '| | Result | Target |',
    '|---|---:|---|',
    `| Lookups while both workers are busy (400 jobs queued, nothing killed; 15 s): p50 / p99 ms | ${ms(percentile(throughput.busyLookups.ms, 50))} / ${ms(percentile(throughput.busyLookups.ms, 99))} (${lookupsStatus(throughput.busyLookups)}) | p99 < 20 |`,
    `| Async submissions through 2 API processes (autocannon, 32 connections each spread over ${USERS} users with live keys, each submission charged; 10 s; workers stopped) | ${Math.round(throughput.perSecond).toLocaleString('en')}/s (p99 ${throughput.p99} ms, ${throughput.non2xx} non-2xx, ${throughput.errors} errors) | ≥ 1,000/s |`,
    `| Synchronous ×2 upscale via an API process: answer time vs the job's own start-to-settle time | ${throughput.syncAnswerMs.toFixed(0)} ms vs ${throughput.syncJobMs} ms | answers in its processing time, not a sweep interval |`,
    '',
    '### Rate limit: both API processes at the spec\'s 120 per minute, one user, calls alternating between them',
    '',
    '| Calls | 200 | 429 | other | Target |',
    '|---:|---:|---:|---:|---|',
    `| ${rateLimit.calls} | ${rateLimit.ok} | ${rateLimit.limited} | ${rateLimit.other} | exactly 120 × 200 |`,
  ].join('\n');
}

await main();
