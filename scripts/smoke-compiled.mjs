// Runs the compiled build the way a user does, since the test suite runs the sources through tsx: builds dist/ if
// needed, creates a key with bin/roomcraft, starts `node dist/main.js serve` on a free port with an empty data
// directory (but the installed models: `roomcraft models install` first), and upscales a generated image, which
// goes through a worker thread started from dist/jobs/ and the upscaling network. Exits 0 when the image comes back
// at twice the size. About 5 s.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { build, DIST, ROOT } from './build.mjs';

const started = performance.now();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'roomcraft-smoke-'));
const port = await freePort();
const env = {
  ...process.env,
  ROOMCRAFT_DATA_DIR: dataDir,
  ROOMCRAFT_MODEL_DIR: process.env.ROOMCRAFT_MODEL_DIR ?? path.join(process.env.ROOMCRAFT_DATA_DIR ?? path.join(ROOT, 'data'), 'models'),
  HOST: '127.0.0.1',
  PORT: String(port),
  ROOMCRAFT_WORKER_THREADS: '1',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL; // SQLite in the data directory
let server;
try {
  await build();
  const key = execFileSync(path.join(ROOT, 'bin/roomcraft'), ['keys', 'create', '--email', 'smoke@example.com', '--kind', 'test'], {
    env,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1);
  server = spawn(process.execPath, [path.join(DIST, 'main.js'), 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((_, reject) => server.once('exit', (code) => reject(new Error(`the service exited with ${code}`))));
  await Promise.race([untilListening(`http://127.0.0.1:${port}/status.json`), exited]);
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
  const response = await Promise.race([
    fetch(`http://127.0.0.1:${port}/v1/upscale`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `data:image/png;base64,${png.toString('base64')}`, scale: 2 }),
    }),
    exited,
  ]);
  const body = await response.json();
  if (response.status !== 200 || body.status !== 'success') throw new Error(`upscale answered ${response.status}: ${JSON.stringify(body)}`);
  const { width, height } = await sharp(Buffer.from(body.base64, 'base64')).metadata();
  if (width !== 80 || height !== 60) throw new Error(`upscale returned ${width}x${height}, not 80x60`);
  process.stdout.write(`compiled build: key created, service started, 40x30 upscaled to 80x60 in a worker thread (${Math.round(performance.now() - started)} ms)\n`);
} catch (error) {
  process.stderr.write(`smoke test of the compiled build failed: ${error.stack ?? error}\n`);
  process.exitCode = 1;
} finally {
  if (server && server.exitCode === null) {
    server.removeAllListeners('exit');
    const gone = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await gone;
  }
  rmSync(dataDir, { recursive: true, force: true });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function untilListening(url) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the service did not answer ${url} within 60 s: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
