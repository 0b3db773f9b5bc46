import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { makeImage } from './helpers/fixtures.js';
import { runCommand, defaultOutput } from '../src/cli/run.js';
import { parseRunArguments, type RunArguments } from '../src/cli/run-arguments.js';
import { ProgressBar } from '../src/cli/progress-bar.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Only a hang reaches these: a run of a small photo takes seconds even on a loaded machine. */
const HANG_MS = 10 * 60_000;
const HANG = { timeout: HANG_MS + 60_000 };

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A child process run to its end, its output collected; only a hang reaches the limit. */
function collect(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: HANG_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** bin/roomcraft in a child process, with no ROOMCRAFT_URL or key from the environment unless given. */
function roomcraft(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Outcome> {
  const env: Record<string, string | undefined> = { ...process.env, ROOMCRAFT_URL: undefined, ROOMCRAFT_API_KEY: undefined, LOG_LEVEL: undefined };
  return collect(path.join(ROOT, 'bin/roomcraft'), args, { cwd: options.cwd ?? ROOT, env: { ...env, ...options.env } });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function dimensions(file: string): Promise<[number, number]> {
  const meta = await sharp(file).metadata();
  return [meta.width!, meta.height!];
}

describe('roomcraft run against a service on 127.0.0.1', () => {
  let t: TestApp;
  let server: string;
  let dir: string;
  before(async () => {
    const port = await freePort();
    server = `http://127.0.0.1:${port}`;
    // The output URLs the service hands out must point at the port it listens on.
    t = await startTestApp({ publicUrl: server });
    await t.app.listen({ host: '127.0.0.1', port });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-cli-run-'));
  });
  after(async () => {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('upscales a local photo: the image beside it at twice the size, and the job with its engine on stdout', HANG, async () => {
    const photo = path.join(dir, 'room.png');
    await fs.writeFile(photo, await makeImage(24, 16, 'png'));
    const run = await roomcraft(['run', 'upscale', photo, '--server', server, '--key', t.user.key]);
    assert.equal(run.code, 0, run.stderr);
    const output = path.join(dir, 'room-upscale.png');
    assert.deepEqual(await dimensions(output), [48, 32]);
    assert.match(run.stdout, new RegExp(`wrote +${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const jobId = /^job +(\S+)$/m.exec(run.stdout)?.[1];
    assert.ok(jobId, run.stdout);
    const job = (await t.app.inject({ method: 'GET', url: `/v1/job/${jobId}`, headers: t.auth })).json();
    assert.equal(job.status, 'success');
    assert.equal(typeof job.result.engine, 'string');
    assert.ok(run.stdout.includes(`engine: ${job.result.engine}`), run.stdout);
    assert.match(run.stderr, /upscale: done/);
  });

  it('sends numbers as numbers (--scale=3), writes to -o and prints JSON with --json', HANG, async () => {
    const photo = path.join(dir, 'small.jpg');
    await fs.writeFile(photo, await makeImage(10, 8, 'jpeg'));
    const out = path.join(dir, 'three.jpg');
    const run = await roomcraft(['run', 'upscale', photo, '--scale=3', '-o', out, '--json'], {
      env: { ROOMCRAFT_URL: server, ROOMCRAFT_API_KEY: t.user.key },
    });
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout);
    assert.equal(printed.file, out);
    assert.equal(printed.job.status, 'success');
    assert.equal(printed.job.mode, 'upscale');
    assert.equal(printed.job.result.scale, 3);
    assert.equal(typeof printed.job.result.engine, 'string');
    assert.deepEqual(await dimensions(out), [30, 24]);
  });

  it('exits 1 with the reason when the service refuses the request or the job fails', HANG, async () => {
    const photo = path.join(dir, 'room2.png');
    await fs.writeFile(photo, await makeImage(8, 8));
    const refused = await roomcraft(
      ['run', 'smart-staging-v2', photo, '--room-id', 'bedroom', '--style-id', 'no-such-style', '--server', server, '--key', t.user.key],
    );
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /validation_failed/);
    assert.match(refused.stderr, /no-such-style/);

    const notAnImage = path.join(dir, 'notes.txt');
    await fs.writeFile(notAnImage, 'these are not pixels');
    const failed = await roomcraft(['run', 'upscale', notAnImage, '--server', server, '--key', t.user.key]);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stderr, /unsupported_image_format/);
    await assert.rejects(fs.stat(path.join(dir, 'notes-upscale.png')));

    const wrongKey = await roomcraft(['run', 'upscale', photo, '--server', server, '--key', 'rc_test_wrong']);
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /401 unauthorized/);
  });
});

describe('roomcraft run without a server', () => {
  it('starts the service in the process and leaves only the result behind', HANG, async () => {
    const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-cli-embedded-'));
    try {
      await fs.writeFile(path.join(cwd, 'room.jpg'), await makeImage(20, 14, 'jpeg'));
      const run = await roomcraft(['run', 'upscale', 'room.jpg', '--json'], { cwd });
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout);
      assert.equal(printed.file, path.join(cwd, 'room-upscale.jpg'));
      assert.equal(printed.job.status, 'success');
      assert.equal(typeof printed.job.result.engine, 'string');
      assert.deepEqual(await dimensions(printed.file), [40, 28]);
      assert.match(run.stderr, /runs inside this command/);
      assert.deepEqual((await fs.readdir(cwd)).sort(), ['room-upscale.jpg', 'room.jpg']);
    } finally {
      await fs.rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('roomcraft run arguments', () => {
  const parse = (...argv: string[]): RunArguments => {
    const parsed = parseRunArguments(argv);
    assert.equal(parsed.kind, 'run', JSON.stringify(parsed));
    return (parsed as { args: RunArguments }).args;
  };
  const refused = (...argv: string[]): string => {
    const parsed = parseRunArguments(argv);
    assert.equal(parsed.kind, 'error', JSON.stringify(parsed));
    return (parsed as { message: string }).message;
  };

  it('types each field as the operation schema does', () => {
    assert.deepEqual(parse('upscale', 'a.jpg', '--scale', '3').fields, { scale: 3 });
    assert.deepEqual(parse('upscale-advanced', 'a.jpg', '--scale=6').fields, { scale: 6 });
    assert.equal(parse('upscale-advanced', 'a.jpg').operation, 'upscale_advanced');
    // A boolean alone does not swallow the photo after it.
    assert.deepEqual(parse('enhancer', '--sky-fix', 'b.jpg'), { operation: 'enhancer', photo: 'b.jpg', fields: { sky_fix: true }, json: false });
    assert.deepEqual(parse('enhancer', 'a.jpg', '--sky-fix').fields, { sky_fix: true });
    assert.deepEqual(parse('enhancer', 'a.jpg', '--sky_fix', 'false', '--no-auto-privacy').fields, { sky_fix: false, auto_privacy: false });
    assert.deepEqual(parse('enhancer', 'a.jpg', '--auto-privacy=true', '--retouch', 'learned').fields, { auto_privacy: true, retouch: 'learned' });
    for (const flag of ['--style-id', '--styleId', '--style_id', '--STYLEID']) {
      assert.deepEqual(parse('creative-redesign', 'a.jpg', flag, 'modern', '--room-id', 'kitchen').fields, { styleId: 'modern', roomId: 'kitchen' });
    }
    assert.deepEqual(parse('declutter', 'a.jpg', '--mask', 'm.png').fields, { mask: 'm.png' });
    const options = parse('furnish', 'a.jpg', '--style-id', 's', '--furniture-id', 'f', '--preserve-windows', '-o', 'x.jpg', '--json', '--server', 'http://h', '--key', 'k');
    assert.deepEqual(options, {
      operation: 'furnish',
      photo: 'a.jpg',
      fields: { styleId: 's', furnitureId: 'f', preserveWindows: true },
      out: 'x.jpg',
      json: true,
      server: 'http://h',
      key: 'k',
    });
  });

  it('refuses what the schema does not allow, naming what it does', () => {
    assert.match(refused('relight', 'a.jpg'), /unknown operation "relight"; the operations are creative-redesign, furnish, .*enhancer/);
    assert.match(refused('upscale', 'a.jpg', '--strength', '2'), /upscale has no field --strength; its fields are: \[--scale 2\|3\]/);
    assert.match(refused('enhancer', 'a.jpg', '--scale', '2'), /its fields are: \[--sky-fix\] \[--sky-id ID\] \[--auto-privacy\] \[--retouch classical\|learned\]/);
    assert.match(refused('upscale', 'a.jpg', '--scale', '4'), /--scale: is one of 2, 3, not 4/);
    assert.match(refused('upscale', 'a.jpg', '--scale', 'two'), /--scale: is a number, not "two"/);
    assert.match(refused('upscale', 'a.jpg', '--scale'), /--scale needs a value/);
    assert.match(refused('enhancer', 'a.jpg', '--sky-fix=maybe'), /--sky-fix: is true or false/);
    assert.match(refused('creative-redesign', 'a.jpg', '--room-id', 'kitchen'), /creative-redesign needs --style-id ID/);
    assert.match(refused('smart-staging', 'a.jpg', '--style-id', 's', '--room-id', 'kitchen'), /--room-id: is one of living_room, bedroom/);
    assert.match(refused('upscale', 'a.jpg', '--url', 'http://x'), /the image is PHOTO/);
    assert.match(refused('upscale', 'a.jpg', '--webhook', 'http://x'), /follows the job itself/);
    assert.match(refused('upscale', 'a.jpg', '--scale', '2', '--scale', '3'), /--scale is given twice/);
    assert.match(refused('upscale', 'a.jpg', 'b.jpg'), /unexpected argument "b.jpg"/);
    assert.match(refused('upscale'), /which photo\?/);
    assert.match(refused(), /which operation\?/);
    assert.match(refused('--scale', '2', 'upscale', 'a.jpg'), /comes before the operation/);
    assert.match(refused('upscale', 'a.jpg', '-x'), /unknown option -x/);
  });

  it('exits 2 on usage errors before contacting anything', async () => {
    const run = async (argv: string[], env: Record<string, string> = {}) => {
      let stdout = '';
      let stderr = '';
      const code = await runCommand(argv, env, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
      return { code, stdout, stderr };
    };
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: roomcraft run OP PHOTO/);
    assert.match(help.stdout, /upscale_advanced +\[--scale 2\|4\|6\]/);
    assert.match((await run(['upscale', 'a.jpg', '--scale', '5'])).stderr, /roomcraft run: --scale: is one of 2, 3/);
    const missing = await run(['upscale', path.join(os.tmpdir(), 'no-such-photo-for-roomcraft.jpg')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*no-such-photo-for-roomcraft\.jpg: no such file/);
    const keyAlone = await run(['upscale', 'a.jpg', '--key', 'rc_test_x']);
    assert.equal(keyAlone.code, 2);
    assert.match(keyAlone.stderr, /--key goes with --server/);
    const noKey = await run(['upscale', 'a.jpg'], { ROOMCRAFT_URL: 'http://127.0.0.1:9' });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /needs an API key: --key KEY or ROOMCRAFT_API_KEY/);
    const noDirectory = await run(['upscale', 'a.jpg', '-o', path.join(os.tmpdir(), 'no-such-directory-for-roomcraft', 'x.jpg')]);
    assert.equal(noDirectory.code, 2);
    assert.match(noDirectory.stderr, /there is no directory/);
    const badServer = await run(['upscale', 'a.jpg', '--server', 'localhost:8080', '--key', 'k']);
    assert.equal(badServer.code, 2);
    assert.match(badServer.stderr, /--server must be an http\(s\) URL/);
  });

  it('names the result after the photo and the operation', () => {
    assert.equal(defaultOutput('photos/room.jpg', 'upscale', 'jpg'), path.join('photos', 'room-upscale.jpg'));
    assert.equal(defaultOutput('room.gif', 'enhancer', 'png'), 'room-enhancer.png');
    assert.equal(defaultOutput('https://example.com/a/kitchen.webp?x=1', 'declutter', 'webp'), 'kitchen-declutter.webp');
  });
});

describe('progress bar', () => {
  it('redraws one line on a terminal and writes a line per quarter elsewhere', () => {
    let clock = 0;
    const tty: string[] = [];
    const bar = new ProgressBar({ isTTY: true, write: (s: string) => tty.push(s) }, 'upscale', () => clock);
    bar.update(0);
    clock = 65_000;
    bar.update(0.5);
    bar.finish('done');
    assert.ok(tty.slice(0, 2).every((s) => s.startsWith('\r') && !s.includes('\n')));
    assert.match(tty[1]!, /upscale +\[█{15}░{15}\] +50% +1:05/);
    assert.equal(tty.at(-1), 'upscale: done in 1:05\n');

    const log: string[] = [];
    clock = 0;
    const quiet = new ProgressBar({ write: (s: string) => log.push(s) }, 'declutter', () => clock);
    for (const fraction of [0, 0.1, 0.2, 0.3, 0.31, 0.6, 0.99]) quiet.update(fraction);
    clock = 40_000;
    quiet.update(0.99);
    quiet.finish('failed');
    assert.deepEqual(log, [
      'declutter: 0% (0:00)\n',
      'declutter: 30% (0:00)\n',
      'declutter: 60% (0:00)\n',
      'declutter: 99% (0:00)\n',
      'declutter: 99% (0:40)\n',
      'declutter: failed in 0:40\n',
    ]);
  });
});

describe('roomcraft entry point', () => {
  /** Which packages of node_modules a command loaded, as seen from the process after it ran. */
  async function packagesLoadedBy(argv: string[], env: Record<string, string>): Promise<{ code: number; packages: string[] }> {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const { runCli } = await import(${JSON.stringify(path.join(ROOT, 'src/cli/cli.ts'))});
      const code = await runCli(${JSON.stringify(argv)}, ${JSON.stringify(env)});
      const packages = new Set(Object.keys(require.cache).filter((p) => p.includes('/node_modules/'))
        .map((p) => p.split('/node_modules/').at(-1).split('/')[0]));
      process.stderr.write('\\n' + JSON.stringify({ code, packages: [...packages] }) + '\\n');`;
    const outcome = await collect(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    assert.equal(outcome.code, 0, outcome.stderr);
    return JSON.parse(outcome.stderr.trim().split('\n').at(-1)!);
  }
  const HEAVY = ['fastify', '@fastify', 'avvio', 'find-my-way', '@img', 'onnxruntime-node'];
  const heavyIn = (packages: string[]) => packages.filter((p) => HEAVY.includes(p));

  it('loads neither Fastify, sharp nor onnxruntime for --help, run --help and keys create', HANG, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomcraft-cli-lazy-'));
    try {
      const help = await packagesLoadedBy(['--help'], {});
      assert.equal(help.code, 0);
      assert.deepEqual(heavyIn(help.packages), []);
      const runHelp = await packagesLoadedBy(['run', '--help'], {});
      assert.equal(runHelp.code, 0);
      assert.deepEqual(heavyIn(runHelp.packages), []);
      const keys = await packagesLoadedBy(['keys', 'create', '--email', 'lazy@example.com', '--kind', 'test'], { ROOMCRAFT_DATA_DIR: dataDir });
      assert.equal(keys.code, 0);
      assert.deepEqual(heavyIn(keys.packages), []);
      // The probe sees them when a command does load them: analyze decodes with sharp and runs onnxruntime.
      const analyze = await packagesLoadedBy(['analyze', path.join(dataDir, 'missing.jpg')], { ROOMCRAFT_DATA_DIR: dataDir });
      assert.equal(analyze.code, 1);
      assert.ok(heavyIn(analyze.packages).includes('@img') && heavyIn(analyze.packages).includes('onnxruntime-node'), analyze.packages.join(' '));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('lists run in the usage and exits 2 on a wrong command line', HANG, async () => {
    const help = await roomcraft(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /run OP PHOTO \[--field value …\]/);
    const wrong = await roomcraft(['run', 'upscale']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /which photo\?/);
    assert.equal((await roomcraft(['no-such-command'])).code, 2);
  });
});
