// Compiles src/ to dist/ (docs/decisions/0009-run-a-compiled-build.md): every .ts file through esbuild, one file
// for one file, the transform tsx applies when the tests run the sources; every other file under src/ (the
// catalog's JSON, the worker threads' entry) copied beside them. No type checking (`npm run typecheck` does that).
// The dashboard's browser code, src/dashboard/, is the exception: bundled for browsers into dist/dashboard/app.js
// and app.css (docs/decisions/0017-dashboard-stack.md), which src/http/routes/dashboard-routes.ts serves.
//
//   node scripts/build.mjs           builds when dist/ is missing or out of date
//   node scripts/build.mjs --force   builds in any case (npm's `prepare`, at install)
//   node scripts/build.mjs --check   exits 0 when dist/ is current, 1 (and says why) when not; builds nothing
//
// bin/roomcraft calls build() from here at every start, so this module loads nothing heavy until it has to build.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Only what every start needs is imported here: node:crypto is loaded when a file has to be hashed.
export const ROOT = path.dirname(import.meta.dirname);
export const DIST = path.join(ROOT, 'dist');
const SRC = path.join(ROOT, 'src');
const STAMP = path.join(DIST, '.build-stamp.json');
const LOCK = path.join(DIST, '.build-lock');
/** The oldest Node the package supports (package.json engines): esbuild lowers or drops what that one lacks. */
const TARGET = 'node20.18';
const STAMP_VERSION = 1;
/** The dashboard's sources, bundled for browsers rather than compiled file by file for Node. */
const DASHBOARD = path.join('src', 'dashboard');
/** The browsers the dashboard supports: those of the last few years, phones included. */
const BROWSERS = ['chrome109', 'firefox115', 'safari15.6'];

/**
 * What the output depends on, as paths relative to ROOT: every file under src/ (its .ts files are compiled, the
 * others copied), the compiler settings and this script; and the directories under src/, whose modification times change when an entry is added, removed or renamed.
 */
function inputs() {
  const entries = readdirSync(SRC, { recursive: true, withFileTypes: true });
  const relative = (entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name));
  // Editors' hidden and backup files are no input.
  const files = entries.filter((entry) => entry.isFile() && !/^\.|~$/.test(entry.name)).map(relative);
  files.push('tsconfig.json', path.relative(ROOT, import.meta.filename));
  const dirs = [path.relative(ROOT, SRC), ...entries.filter((entry) => entry.isDirectory()).map(relative)];
  return { files: files.sort(), dirs: dirs.sort() };
}

const sha256 = (file) =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(readFileSync(path.join(ROOT, file))).digest('hex');

function stat(file) {
  try {
    return statSync(path.join(ROOT, file));
  } catch {
    return undefined;
  }
}

/** The stamp: size, modification time and content hash of each input file; modification time of each directory. */
function describe({ files, dirs }) {
  const record = {};
  for (const file of files) {
    const { size, mtimeMs } = statSync(path.join(ROOT, file));
    record[file] = [size, mtimeMs, sha256(file)];
  }
  return { version: STAMP_VERSION, files: record, dirs: Object.fromEntries(dirs.map((dir) => [dir, stat(dir)?.mtimeMs])) };
}

function readStamp() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    return stamp.version === STAMP_VERSION ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** Whether dist/ was built from the inputs as they are now. */
export function isCurrent() {
  return staleness() === undefined;
}

/**
 * Why dist/ is not current, or undefined when it is. When the size and modification time of every input file, and
 * the modification time of every source directory, match the stamp, a stat per path answers without listing src/.
 * Otherwise the inputs are listed again and the files whose size or time differ are hashed, so a checkout that
 * rewrote a file with the same content leaves dist/ current.
 */
export function staleness() {
  const stamp = readStamp();
  if (!stamp) return 'it has not been built, or its last build did not finish';
  const unchanged = (file) => {
    const now = stat(file);
    const [size, mtimeMs] = stamp.files[file];
    return now !== undefined && now.size === size && now.mtimeMs === mtimeMs;
  };
  const dirsUnchanged = Object.entries(stamp.dirs).every(([dir, mtimeMs]) => stat(dir)?.mtimeMs === mtimeMs);
  if (dirsUnchanged && Object.keys(stamp.files).every(unchanged)) return undefined;
  const { files } = inputs();
  const added = files.find((file) => !(file in stamp.files));
  if (added) return `${added} is new`;
  const present = new Set(files);
  const removed = Object.keys(stamp.files).find((file) => !present.has(file));
  if (removed) return `${removed} was removed`;
  const changed = files.find((file) => !unchanged(file) && sha256(file) !== stamp.files[file][2]);
  return changed && `${changed} changed`;
}

/** Runs fn holding dist/.build-lock, a file naming its process; a lock whose process has gone is taken over. */
async function withLock(fn) {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`${LOCK} has been held for two minutes; remove it if no build is running`);
      let owner;
      try {
        owner = Number(readFileSync(LOCK, 'utf8'));
      } catch {
        continue; // released meanwhile
      }
      if (owner > 0 && !alive(owner)) rmSync(LOCK, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Builds dist/ unless it is current (or force); concurrent callers wait for one build. Says 'built' or 'current'. */
export async function build({ force = false } = {}) {
  if (!force && isCurrent()) return 'current';
  return withLock(async () => {
    if (!force && isCurrent()) return 'current';
    // The stamp goes first and comes back last: a build that stops half-way leaves dist/ out of date, never wrong.
    rmSync(STAMP, { force: true });
    for (const entry of readdirSync(DIST)) {
      if (path.join(DIST, entry) !== LOCK) rmSync(path.join(DIST, entry), { recursive: true, force: true });
    }
    // Described before esbuild reads them: an input changed during the build no longer matches the stamp.
    const stamp = describe(inputs());
    const sources = Object.keys(stamp.files).filter((file) => file.startsWith(`src${path.sep}`) && !file.startsWith(`${DASHBOARD}${path.sep}`));
    const { build: esbuild } = await import('esbuild');
    await esbuild({
      entryPoints: { app: path.join(ROOT, DASHBOARD, 'main.ts') },
      outdir: path.join(DIST, 'dashboard'),
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: BROWSERS,
      tsconfig: path.join(ROOT, DASHBOARD, 'tsconfig.json'),
      sourcemap: 'linked',
      logLevel: 'error',
    });
    await esbuild({
      entryPoints: sources.filter((file) => file.endsWith('.ts')).map((file) => path.join(ROOT, file)),
      outdir: DIST,
      outbase: SRC,
      format: 'esm',
      platform: 'node',
      target: TARGET,
      tsconfig: path.join(ROOT, 'tsconfig.json'),
      sourcemap: 'linked',
      logLevel: 'error',
    });
    for (const file of sources.filter((file) => !file.endsWith('.ts'))) {
      const to = path.join(DIST, path.relative('src', file));
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(path.join(ROOT, file), to);
    }
    writeFileSync(STAMP, `${JSON.stringify(stamp)}\n`);
    return 'built';
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = new Set(process.argv.slice(2));
  if (args.has('--check')) {
    const reason = staleness();
    process.stdout.write(reason === undefined ? 'dist/ is current\n' : `dist/ is out of date: ${reason}\n`);
    process.exitCode = reason === undefined ? 0 : 1;
  } else {
    const started = performance.now();
    const result = await build({ force: args.has('--force') });
    const ms = Math.round(performance.now() - started);
    process.stdout.write(result === 'built' ? `dist/ built from src/ in ${ms} ms\n` : 'dist/ is current\n');
  }
}
