/**
 * `npm run bench:api`: requests per second and latency of the HTTP layer on loopback, with the service started as
 * its own process exactly as `roomcraft serve` runs it (SQLite, in-process workers), and autocannon in this one.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { machineLine, writeSection } from './report.js';
import { ROOT } from './shared-photos.js';

const DURATION_SECONDS = 10;
const CONNECTIONS = 20;
const PORT = 18_000 + Math.floor(Math.random() * 1000);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomcraft-bench-'));
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    ROOMCRAFT_DATA_DIR: dataDir,
    ROOMCRAFT_FETCH_ALLOW: '127.0.0.1/32',
    // High enough that the limiter is measured as overhead, never as the bottleneck.
    ROOMCRAFT_RATE_LIMIT_PER_MINUTE: '100000000',
    ROOMCRAFT_TEST_DAILY_JOBS: '100000000',
    LOG_LEVEL: 'warn',
  };
  const roomcraft = (...args: string[]) => execFileSync(path.join(ROOT, 'bin/roomcraft'), args, { env, encoding: 'utf8' });
  // A live key as an operator makes one: the user (with a test key), a plan, a licence to it, then the key. Every
  // submission is charged: a conditional UPDATE of the balance and a ledger line in the job's transaction.
  // The user's test key is measured too, on the same run: the same path without the charge (a daily count instead).
  const testKey = roomcraft('keys', 'create', '--email', 'bench@example.com', '--kind', 'test').trim().split('\n').at(-1)!;
  roomcraft('plans', 'define', '--name', 'bench', '--monthly-credits', '100000000');
  roomcraft('licences', 'grant', '--email', 'bench@example.com', '--plan', 'bench');
  const key = roomcraft('keys', 'create', '--email', 'bench@example.com', '--kind', 'live').trim().split('\n').at(-1)!;
  const server = spawn(path.join(ROOT, 'bin/roomcraft'), ['serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const receiver = await startReceiver();
  try {
    await waitForServer(`http://127.0.0.1:${PORT}/status.json`);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const image = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#a0b0c0' } }).png().toBuffer();
    const body = JSON.stringify({
      url: `data:image/png;base64,${image.toString('base64')}`,
      webhook: receiver.url,
    });

    await run({ url: `http://127.0.0.1:${PORT}/v1/styles`, headers, duration: 2 }); // warm-up
    const lookups = await run({ url: `http://127.0.0.1:${PORT}/v1/styles`, headers });
    const submissions = await run({ url: `http://127.0.0.1:${PORT}/v1/upscale`, method: 'POST', headers, body });
    const testSubmissions = await run({
      url: `http://127.0.0.1:${PORT}/v1/upscale`,
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${testKey}` },
      body,
    });
    // The ledger holds one charge per accepted submission, and the balance is what the charges left.
    const account = (await (await fetch(`http://127.0.0.1:${PORT}/v1/account`, { headers })).json()) as {
      balance: number;
      usage: { operation: string; charges: number; refunds: number }[];
    };
    const upscales = account.usage.find((u) => u.operation === 'upscale');
    const charges = upscales?.charges ?? 0;
    const accepted = submissions['2xx'];

    const row = (name: string, result: autocannon.Result) =>
      `| ${name} | ${Math.round(result.requests.average).toLocaleString('en')} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`;
    const markdown = [
      '## API throughput (`npm run bench:api`)',
      '',
      machineLine(),
      `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per row, service as a separate process on loopback (SQLite, in-process worker threads, rate limiter on).`,
      '',
      '| Request | req/s | p50 ms | p99 ms | non-2xx |',
      '|---|---:|---:|---:|---:|',
      row('`GET /v1/styles`', lookups),
      row('`POST /v1/upscale` with `webhook` (async submission, live key charged 1 credit)', submissions),
      row('the same with a test key (not charged; counted under the daily cap)', testSubmissions),
      '',
      `Live key: ${accepted.toLocaleString('en')} submissions answered in the 10 s, ${charges.toLocaleString('en')} charges on the ledger ` +
        `(the rest answered after the count stopped), ${(upscales?.refunds ?? 0).toLocaleString('en')} refunded (their jobs failed: this service ` +
        `has no models installed), balance ${account.balance.toLocaleString('en')} of 100,000,000.`,
      '',
      'Targets: lookups ≥ 5,000 req/s with p99 < 20 ms; charged async submissions ≥ 1,000 req/s on SQLite.',
    ].join('\n');
    writeSection('bench-api', markdown);
    process.stdout.write(`${markdown}\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function run(options: { url: string; method?: 'GET' | 'POST'; headers: Record<string, string>; body?: string; duration?: number }) {
  return autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    ...(options.body ? { body: options.body } : {}),
    connections: CONNECTIONS,
    duration: options.duration ?? DURATION_SECONDS,
  });
}

async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the service did not start within 30 s');
}

/** Accepts webhook deliveries so the service's retries do not add load during the run. */
async function startReceiver() {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

await main();
