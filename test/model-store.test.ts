import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import bundledRegistry from '../src/catalog/models.json' with { type: 'json' };
import { ModelRegistry, type ModelEntry } from '../src/repositories/models/model-registry.js';
import { ModelStore } from '../src/repositories/models/model-store.js';
import { isRefusedLicence } from '../src/repositories/models/licence-policy.js';
import { TEST_TIMEOUT_MS } from './helpers/until.js';

const WEIGHTS = 'package/models/x2/group1-shard1of1.bin';
const TOPOLOGY = 'package/models/x2/model.json';
const SAMPLE_INPUT = 'package/assets/fixture.png';
const SAMPLE_OUTPUT = 'package/assets/samples/2x/result.png';

interface FakePackage {
  name: string;
  version: string;
  license: string;
  tarball: string;
  integrity: string;
}

/** A tarball in npm's layout (everything under `package/`), built with the system tar, plus files we never list. */
async function buildPackage(root: string, license = 'MIT', name = '@example/upscaler'): Promise<FakePackage> {
  const version = '1.2.3';
  const tree = await fsp.mkdtemp(path.join(root, 'tree-'));
  const files: Record<string, string | Buffer> = {
    'package/package.json': JSON.stringify({ name, version, license }),
    'package/README.md': '# not a model',
    'package/dist/index.js': 'export default {};',
    [TOPOLOGY]: JSON.stringify({ format: 'layers-model', weightsManifest: [{ paths: ['group1-shard1of1.bin'] }] }),
    [WEIGHTS]: crypto.randomBytes(64 * 1024),
    'package/models/x4/model.json': '{}',
    'package/models/x4/group1-shard1of1.bin': crypto.randomBytes(1024),
    [SAMPLE_INPUT]: 'input png',
    [SAMPLE_OUTPUT]: 'output png',
  };
  for (const [file, content] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(tree, file)), { recursive: true });
    await fsp.writeFile(path.join(tree, file), content);
  }
  const tarball = path.join(root, `${path.basename(tree)}.tgz`);
  execFileSync('tar', ['-czf', tarball, '-C', tree, 'package']);
  const integrity = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
  return { name, version, license, tarball, integrity };
}

function entry(pkg: FakePackage, overrides: Partial<ModelEntry> = {}): ModelEntry {
  return {
    name: 'test-x2',
    package: pkg.name,
    version: pkg.version,
    integrity: pkg.integrity,
    licence: pkg.license,
    format: 'tfjs-layers',
    scale: 2,
    inputRange: [0, 255],
    description: 'A model made up by the test.',
    files: [TOPOLOGY, WEIGHTS],
    samples: [{ input: SAMPLE_INPUT, output: SAMPLE_OUTPUT }],
    ...overrides,
  };
}

/** Stands in for `npm pack`: copies the built tarball and counts the calls. */
function fakePacker(pkg: FakePackage) {
  const packer = {
    calls: 0,
    pack: async (spec: string, destination: string) => {
      packer.calls += 1;
      assert.equal(spec, `${pkg.name}@${pkg.version}`);
      const target = path.join(destination, 'example-upscaler-1.2.3.tgz');
      await fsp.copyFile(pkg.tarball, target);
      return target;
    },
  };
  return packer;
}

async function setUp(t: TestContext, options: { license?: string; entries?: (pkg: FakePackage) => ModelEntry[] } = {}) {
  const root = await temporaryFolder(t);
  const pkg = await buildPackage(root, options.license);
  const cacheDir = path.join(root, 'cache');
  const registry = ModelRegistry.load({ models: options.entries?.(pkg) ?? [entry(pkg)] });
  const packer = fakePacker(pkg);
  const store = new ModelStore(cacheDir, registry, { pack: packer.pack });
  const packageDir = path.join(cacheDir, `${pkg.name}@${pkg.version}`);
  return { pkg, cacheDir, packageDir, registry, packer, store };
}

async function temporaryFolder(t: TestContext): Promise<string> {
  const folder = await fsp.mkdtemp(path.join(os.tmpdir(), 'roomcraft-models-'));
  t.after(() => fsp.rm(folder, { recursive: true, force: true }));
  return folder;
}

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await fsp.readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(directory, path.join(e.parentPath, e.name))).sort();
}

test('the bundled registry is valid: every model pinned, permissively licensed, with files', () => {
  const registry = ModelRegistry.load();
  assert.ok(registry.models.length >= 17);
  const upscalers = registry.packages.filter((p) => p.package.startsWith('@upscalerjs/esrgan-'));
  assert.equal(upscalers.length, 4, 'the upscaler models come in four tarballs');
  for (const model of registry.models) {
    // A loader opens the first file: a tfjs model.json (layers or graph), an ONNX file, which holds its weights, or
    // a MediaPipe packed-assets file holding a TensorFlow Lite model.
    assert.match(model.files[0]!, /\.(json|onnx|data)$/);
    if (model.format === 'tflite-packed') assert.ok(model.packed, `${model.name} says where its model lies`);
    if (model.format === 'tfjs-layers' || model.format === 'tfjs-graph') assert.ok(model.files.length >= 2, `${model.name} has weights`);
    assert.ok(!isRefusedLicence(model.licence));
  }
});

test('install verifies the tarball, extracts only the listed files and records their sha256', async (t) => {
  const env = await setUp(t);
  const [result] = await env.store.install();
  assert.deepEqual({ outcome: result!.outcome, reason: result!.reason, calls: env.packer.calls }, { outcome: 'fetched', reason: 'not installed', calls: 1 });

  const listed = [TOPOLOGY, WEIGHTS, SAMPLE_INPUT, SAMPLE_OUTPUT];
  assert.deepEqual(await filesUnder(env.packageDir), [...listed, 'manifest.json'].sort());
  const manifest = JSON.parse(await fsp.readFile(path.join(env.packageDir, 'manifest.json'), 'utf8'));
  assert.equal(manifest.integrity, env.pkg.integrity);
  for (const file of listed) assert.equal(manifest.files[file].sha256, sha256(path.join(env.packageDir, file)));
  assert.deepEqual(await fsp.readdir(env.cacheDir), ['@example'], 'no temporary folder is left behind');

  assert.deepEqual(await env.store.filesOf('test-x2'), [path.join(env.packageDir, TOPOLOGY), path.join(env.packageDir, WEIGHTS)]);
  assert.equal(await fsp.readFile(await env.store.pathOf('test-x2', SAMPLE_OUTPUT), 'utf8'), 'output png');
  await assert.rejects(env.store.pathOf('test-x2', 'package/README.md'), /has no file/);
  assert.deepEqual(await env.store.list(), [
    { name: 'test-x2', package: '@example/upscaler', version: '1.2.3', licence: 'MIT', format: 'tfjs-layers', present: true, verified: true },
  ]);
});

test('a second install is a no-op: the packer is not called', async (t) => {
  const env = await setUp(t);
  await env.store.install();
  const [again] = await env.store.install();
  assert.equal(again!.outcome, 'present');
  assert.equal(env.packer.calls, 1);
});

test('models sharing a package fetch its tarball once', async (t) => {
  const env = await setUp(t, {
    entries: (pkg) => [
      entry(pkg),
      entry(pkg, { name: 'test-x4', scale: 4, files: ['package/models/x4/model.json', 'package/models/x4/group1-shard1of1.bin'], samples: [] }),
    ],
  });
  const results = await env.store.install();
  assert.equal(results.length, 1);
  assert.equal(env.packer.calls, 1);
  assert.deepEqual((await env.store.list()).map((m) => [m.name, m.present]), [['test-x2', true], ['test-x4', true]]);
});

test('a rewritten or missing file is noticed by install and its package fetched again', async (t) => {
  const env = await setUp(t);
  await env.store.install();
  const weights = path.join(env.packageDir, WEIGHTS);
  const original = sha256(weights);

  await fsp.writeFile(weights, 'truncated');
  assert.deepEqual((await env.store.list()).map((m) => [m.present, m.verified]), [[true, false]]);
  const [refetched] = await env.store.install();
  assert.equal(refetched!.outcome, 'fetched');
  assert.match(refetched!.reason!, /group1-shard1of1\.bin has changed/);
  assert.equal(sha256(weights), original);

  await fsp.rm(path.join(env.packageDir, SAMPLE_OUTPUT));
  const [again] = await env.store.install();
  assert.match(again!.reason!, /result\.png is missing/);
  assert.equal(env.packer.calls, 3);
});

test('silent corruption (same size and mtime) is caught by the sha256 check on load, then refetched', async (t) => {
  const env = await setUp(t);
  await env.store.install();
  const weights = path.join(env.packageDir, WEIGHTS);
  const stat = await fsp.stat(weights);
  const bytes = await fsp.readFile(weights);
  bytes[0] = bytes[0]! ^ 0xff;
  await fsp.writeFile(weights, bytes);
  await fsp.utimes(weights, stat.atime, stat.mtime);

  assert.equal((await env.store.install())[0]!.outcome, 'present', 'the cheap check cannot see it');
  await assert.rejects(env.store.filesOf('test-x2'), /failed its sha256 check and was removed/);
  assert.equal(fs.existsSync(weights), false);
  assert.equal((await env.store.list())[0]!.present, false);
  assert.equal((await env.store.install())[0]!.outcome, 'fetched');
  assert.equal((await env.store.filesOf('test-x2')).length, 2);
});

test('a tarball whose integrity is not the registry\'s is refused and nothing is installed', async (t) => {
  const wrong = `sha512-${crypto.createHash('sha512').update('another tarball').digest('base64')}`;
  const env = await setUp(t, { entries: (pkg) => [entry(pkg, { integrity: wrong })] });
  await assert.rejects(env.store.install(), /integrity .* is not the registry's .*refusing it/);
  assert.deepEqual(await fsp.readdir(env.cacheDir), [], 'neither the package nor a temporary folder remains');
  assert.deepEqual((await env.store.list()).map((m) => [m.present, m.verified]), [[false, false]]);
  await assert.rejects(env.store.filesOf('test-x2'), /not installed; run `roomcraft models install`/);
});

test('GPL and AGPL models are refused by the registry; LGPL and permissive licences are allowed', async (t) => {
  const pkg = await buildPackage(await temporaryFolder(t));
  for (const licence of ['GPL-3.0', 'AGPL-3.0-only', 'GPL-2.0-or-later', 'GPL-2.0+', '(MIT OR GPL-3.0-only)', 'GPL-2.0-only WITH Classpath-exception-2.0']) {
    assert.throws(() => ModelRegistry.load({ models: [entry(pkg, { licence })] }), /GPL and AGPL models are refused/, licence);
  }
  for (const licence of ['MIT', 'Apache-2.0', 'LGPL-3.0-or-later', '(MIT OR Apache-2.0)']) {
    assert.doesNotThrow(() => ModelRegistry.load({ models: [entry(pkg, { licence })] }), licence);
  }
});

test('a package whose package.json declares GPL is refused at install even if the registry says MIT', async (t) => {
  const env = await setUp(t, { license: 'AGPL-3.0-only', entries: (pkg) => [entry(pkg, { licence: 'MIT' })] });
  await assert.rejects(env.store.install(), /licensed "AGPL-3.0-only"; GPL and AGPL models are refused/);
  assert.deepEqual(await fsp.readdir(env.cacheDir), []);
});

test('a package whose declared licence differs from the registry\'s is refused', async (t) => {
  const env = await setUp(t, { license: 'Apache-2.0', entries: (pkg) => [entry(pkg, { licence: 'MIT' })] });
  await assert.rejects(env.store.install(), /declares licence "Apache-2.0" but the registry says "MIT"/);
});

test('a listed file missing from the tarball fails the install', async (t) => {
  const env = await setUp(t, { entries: (pkg) => [entry(pkg, { files: [TOPOLOGY, 'package/models/x2/group1-shard2of2.bin'] })] });
  await assert.rejects(env.store.install(), /tar could not extract/);
  assert.deepEqual(await fsp.readdir(env.cacheDir), []);
});

test('a conversion is produced once, reused, and produced again for a new converter id or altered bytes', async (t) => {
  const env = await setUp(t);
  await env.store.install();
  const produced: string[] = [];
  const converter = (id: string) => async (files: string[]) => {
    produced.push(id);
    assert.deepEqual(files, await env.store.filesOf('test-x2'));
    return new TextEncoder().encode(`onnx by ${id}`);
  };

  const first = await env.store.convert('test-x2', 'tfjs2onnx-1', converter('tfjs2onnx-1'));
  assert.equal(await fsp.readFile(first, 'utf8'), 'onnx by tfjs2onnx-1');
  const [reused, concurrent] = await Promise.all([
    env.store.convert('test-x2', 'tfjs2onnx-1', converter('tfjs2onnx-1')),
    env.store.convert('test-x2', 'tfjs2onnx-1', converter('tfjs2onnx-1')),
  ]);
  assert.equal(reused, first);
  assert.equal(concurrent, first);
  const freshStore = new ModelStore(env.cacheDir, env.registry, { pack: env.packer.pack });
  assert.equal(await freshStore.convert('test-x2', 'tfjs2onnx-1', converter('tfjs2onnx-1')), first, 'reused across processes');
  assert.deepEqual(produced, ['tfjs2onnx-1']);

  const second = await env.store.convert('test-x2', 'tfjs2onnx-2', converter('tfjs2onnx-2'));
  assert.notEqual(second, first);
  assert.equal(fs.existsSync(first), false, 'the stale conversion is removed');
  assert.deepEqual(produced, ['tfjs2onnx-1', 'tfjs2onnx-2']);

  await fsp.writeFile(second, 'damaged');
  assert.equal(await fsp.readFile(await env.store.convert('test-x2', 'tfjs2onnx-2', converter('tfjs2onnx-2')), 'utf8'), 'onnx by tfjs2onnx-2');
  assert.deepEqual(produced, ['tfjs2onnx-1', 'tfjs2onnx-2', 'tfjs2onnx-2']);
  await assert.rejects(env.store.convert('test-x2', '../escape', converter('x')), /invalid converter id/);
});

test(
  'the real npm pack fetches the smallest registry package (set ROOMCRAFT_TEST_OFFLINE=1 to skip)',
  { skip: process.env.ROOMCRAFT_TEST_OFFLINE === '1', timeout: TEST_TIMEOUT_MS },
  async (t) => {
    const models = bundledRegistry.models.filter((m) => m.package === '@upscalerjs/esrgan-slim');
    const store = new ModelStore(await temporaryFolder(t), ModelRegistry.load({ models }));
    const [result] = await store.install();
    assert.equal(result!.outcome, 'fetched');
    assert.ok((await store.list()).every((m) => m.present && m.verified));
    for (const model of models) {
      // The registry lists the shards in the order model.json's weightsManifest names them.
      const [modelJson, ...shards] = await store.filesOf(model.name);
      const manifest = JSON.parse(await fsp.readFile(modelJson!, 'utf8')) as { weightsManifest: { paths: string[] }[] };
      const named = manifest.weightsManifest.flatMap((group) => group.paths).map((shard) => path.join(path.dirname(modelJson!), shard));
      assert.deepEqual(shards, named, model.name);
    }
    const sample = await store.pathOf('esrgan-slim-x2', 'package/assets/samples/2x/result.png');
    assert.deepEqual([...(await fsp.readFile(sample)).subarray(1, 4)], [...Buffer.from('PNG')]);
  },
);
