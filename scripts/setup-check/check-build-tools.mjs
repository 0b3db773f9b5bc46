// Checks, before better-sqlite3 is compiled, that what compiling it needs is here, and says what is missing.
//
// better-sqlite3's install script downloads a prebuilt binary and compiles from source when it cannot (offline, or
// an unusual platform). Compiling needs Python 3, make, C and C++ compilers, and the headers of the running Node.js;
// without them node-gyp fails at the end of a long log, or blames the network for headers it could not download.
//
// npm 11 runs the root package's preinstall only after every dependency's install script, too late. This is the
// `prepare` script of a local dependency instead (package.json's roomcraft-setup-check): with install-links (.npmrc)
// npm packs that directory before it unpacks anything, running its prepare, so this runs first; it stops the install
// when it fails, and says nothing when it succeeds.
//
// The project's set-up installs what it uses. Run as root where apt-get is, the missing Debian packages are installed
// (apt-get update once, then apt-get install); headers found on this machine are handed to node-gyp's cache with
// `node-gyp install --tarball`. The root package's postinstall then says what was done. Otherwise the install stops
// here, naming what is missing and the command that installs it.
//
//   node check-build-tools.mjs            the check; npm runs it
//   node check-build-tools.mjs --report   prints what the check did, once (the root package's postinstall)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, appendFileSync, constants, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// node_modules may not exist yet (npm ci removes it first): the note for the root postinstall waits in the temp dir.
const NOTES = path.join(os.tmpdir(), `roomcraft-setup-notes-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`);
const SQLITE = path.join(ROOT, 'node_modules', 'better-sqlite3');
const VERSION = process.version.slice(1);

if (process.argv.includes('--report')) {
  if (existsSync(NOTES)) {
    process.stdout.write(readFileSync(NOTES, 'utf8'));
    rmSync(NOTES);
  }
  process.exit(0);
}

const sqliteVersion = lockedVersion('better-sqlite3');
if (!sqliteVersion || existsSync(path.join(SQLITE, 'build', 'Release', 'better_sqlite3.node'))) {
  process.exit(0); // not a dependency, or already built (an npm install that keeps it)
}

let tools = missingTools();
let headers = headersState();
if (tools.length === 0 && headers.ready) process.exit(0);
if (await prebuiltBinaryAvailable(sqliteVersion)) process.exit(0);

// From here on better-sqlite3 will be compiled.
let aptUpdated = false;
for (let attempt = 0; ; attempt++) {
  const missing = [...tools];
  if (!headers.ready && !headers.local && !(await downloadable(headersUrl()))) missing.push(headersMissing());
  if (missing.length === 0) break;
  const packages = [...new Set(missing.map((piece) => piece.apt).filter(Boolean))];
  if (attempt > 0 && packages.length) fail(missing, 'apt-get installed their packages, yet they are still missing (check PATH, CC, CXX).');
  if (attempt > 0 || packages.length === 0 || !canUseApt()) fail(missing);
  aptInstall(packages);
  tools = missingTools();
  headers = headersState();
}
if (headers.local && !installHeaders(headers.local) && !(await downloadable(headersUrl()))) {
  const nodedir = path.dirname(path.dirname(headers.local));
  fail([piece(`the Node.js ${process.version} headers: they are in ${headers.local}, but node-gyp is not told so`, undefined, `npm config set nodedir ${nodedir}`)]);
}

/** A piece that is missing: what it is, the Debian package that provides it (if one does), how else to fix it. */
function piece(what, apt, fix) {
  return { what, apt, fix };
}

function missingTools() {
  const missing = [];
  if (!python()) {
    const configured = process.env.npm_config_python || process.env.PYTHON;
    missing.push(configured ? piece(`Python 3.6 or later (configured: ${configured})`) : piece('Python 3.6 or later (python3)', 'python3'));
  }
  const make = process.env.MAKE;
  if (!which(make || 'make')) missing.push(make ? piece(`make (MAKE=${make})`) : piece('make', 'make'));
  for (const [variable, fallback, what, apt] of [
    ['CC', 'cc', 'a C compiler', 'gcc'],
    ['CXX', 'g++', 'a C++ compiler', 'g++'],
    ['AR', 'ar', 'an archiver', 'binutils'],
  ]) {
    const set = process.env[variable];
    const command = (set || fallback).trim().split(/\s+/)[0];
    if (!which(command)) missing.push(set ? piece(`${what} (${variable}=${set})`) : piece(`${what} (${command})`, apt));
  }
  return missing;
}

/** Like node-gyp: the configured Python, else the first of python3 and python on PATH that is 3.6 or later. */
function python() {
  const configured = process.env.npm_config_python || process.env.PYTHON;
  for (const name of configured ? [configured] : ['python3', 'python']) {
    const found = which(name);
    if (!found) continue;
    const run = spawnSync(found, ['-c', 'import sys; print(sys.version_info >= (3, 6))'], { encoding: 'utf8' });
    if (run.status === 0 && run.stdout.trim() === 'True') return found;
  }
  return undefined;
}

function which(command) {
  const candidates = command.includes('/') ? [command] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Where node-gyp will find the headers of this Node.js: `ready` when npm's nodedir or node-gyp's cache has them;
 * `local`, a directory on this machine that has this very version's headers, which installHeaders() can hand over.
 */
function headersState() {
  const nodedir = process.env.npm_config_nodedir;
  if (nodedir) return { ready: existsSync(path.join(nodedir, 'include', 'node', 'node.h')), nodedir };
  if (existsSync(path.join(gypCacheDir(), VERSION, 'include', 'node', 'common.gypi')) && existsSync(path.join(gypCacheDir(), VERSION, 'installVersion'))) {
    return { ready: true };
  }
  const prefix = path.dirname(path.dirname(realpathSync(process.execPath)));
  const local = [path.join(prefix, 'include', 'node'), '/usr/include/node', '/usr/local/include/node'].find((dir) => headerVersion(dir) === VERSION);
  return { ready: false, local };
}

function headerVersion(dir) {
  try {
    const text = readFileSync(path.join(dir, 'node_version.h'), 'utf8');
    const part = (name) => new RegExp(`#define ${name} (\\d+)`).exec(text)?.[1];
    return `${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
  } catch {
    return undefined;
  }
}

/** node-gyp's cache of headers (its devdir): npm's devdir, else $XDG_CACHE_HOME/node-gyp or ~/.cache/node-gyp. */
function gypCacheDir() {
  return process.env.npm_config_devdir || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'node-gyp');
}

/** Puts this machine's headers of this Node.js into node-gyp's cache, so that it does not download them. */
function installHeaders(dir) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'roomcraft-headers-'));
  try {
    const tarball = path.join(scratch, `node-v${VERSION}-headers.tar`);
    const tar = spawnSync('tar', ['-chf', tarball, '--transform', `s,^\\.,node-v${VERSION}/include/node,`, '-C', dir, '.'], { encoding: 'utf8' });
    const gyp = tar.status === 0 && spawnSync(process.execPath, [nodeGyp(), 'install', `--tarball=${tarball}`, `--devdir=${gypCacheDir()}`], { encoding: 'utf8' });
    if (!gyp || gyp.status !== 0) {
      say(`could not hand ${dir} to node-gyp: ${(tar.stderr || gyp?.stderr || '').trim().split('\n').at(-1)}`);
      return false;
    }
    note(`gave node-gyp the Node.js ${process.version} headers from ${dir} (it would have downloaded them)`);
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** npm's own node-gyp, the one better-sqlite3's install script runs. */
function nodeGyp() {
  if (process.env.npm_config_node_gyp) return process.env.npm_config_node_gyp;
  const npm = which('npm');
  return npm ? path.join(path.dirname(realpathSync(npm)), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js') : 'node-gyp';
}

function headersUrl() {
  const mirror = process.env.npm_config_disturl || process.env.NODEJS_ORG_MIRROR;
  return mirror ? `${mirror.replace(/\/$/, '')}/v${VERSION}/node-v${VERSION}-headers.tar.gz` : process.release.headersUrl;
}

/**
 * Whether `url` can be downloaded from here. Behind a proxy this cannot tell (fetch ignores proxies) and says yes; so
 * it does for answers that are neither success nor "not found" (a rate limit, a server error).
 */
async function downloadable(url) {
  const proxy = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'npm_config_https_proxy', 'npm_config_proxy'].some((name) => process.env[name]);
  if (proxy || !url) return true;
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(10_000) });
    return response.status !== 404 && response.status !== 410;
  } catch {
    return false; // no DNS, no route, refused, timed out: offline
  }
}

function headersMissing() {
  const what = `the Node.js ${process.version} headers (include/node/node.h), which node-gyp cannot download from ${new URL(headersUrl()).host}`;
  const nodedir = process.env.npm_config_nodedir;
  if (nodedir) return piece(`${what}: npm's nodedir is ${nodedir}, which has no include/node/node.h`, undefined, 'set nodedir to the directory that holds include/node, or remove it (npm config delete nodedir)');
  const owner = dpkgOwner(realpathSync(process.execPath));
  if (owner && listsHeaders(owner)) return piece(what, undefined, `they belong to the Debian package ${owner}: apt-get install --reinstall ${owner}`);
  if (owner) return piece(what, `libnode-dev=${dpkgVersion(owner)}`, `on Debian and Ubuntu they are the package libnode-dev (nodejs-dev before Debian 11)`);
  return piece(what, undefined, `they come with the Node.js download (its include/node); npm config set nodedir <the directory holding include/node>`);
}

function dpkgOwner(file) {
  if (!which('dpkg')) return undefined;
  const run = spawnSync('dpkg', ['-S', file], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.split(':')[0].trim() : undefined;
}

function dpkgVersion(pkg) {
  return spawnSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' }).stdout.trim();
}

function listsHeaders(pkg) {
  return spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8' }).stdout.split('\n').some((line) => line.endsWith('/include/node/node.h'));
}

/** The version of `name` that npm installs: package-lock.json's, else package.json's pin. */
function lockedVersion(name) {
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
    } catch {
      return undefined;
    }
  };
  return read('package-lock.json')?.packages?.[`node_modules/${name}`]?.version ?? read('package.json')?.dependencies?.[name];
}

/**
 * Whether better-sqlite3's install script will get a prebuilt binary, asked the way its prebuild-install asks:
 * a build from source forced by npm's configuration, the binary in npm's cache of prebuilt binaries, or the release
 * asset on GitHub (or on the mirror configured for it). Behind a proxy (fetch ignores proxies) it cannot tell, and
 * says yes: the install then goes on as it would without this check.
 */
async function prebuiltBinaryAvailable(version) {
  const env = process.env;
  if (env.npm_config_build_from_source === 'true' || env.npm_config_better_sqlite3_build_from_source === 'true') return false;
  const glibc = process.platform !== 'linux' || Boolean(process.report?.getReport().header.glibcVersionRuntime);
  const file = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${glibc ? '' : 'musl'}-${process.arch}.tar.gz`;
  const mirror = env.npm_config_better_sqlite3_binary_host || env.npm_config_better_sqlite3_binary_host_mirror;
  const url = mirror ? `${mirror}/v${version}/${file}` : `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/${file}`;
  const cache = path.join(env.npm_config_cache || path.join(os.homedir(), '.npm'), '_prebuilds');
  const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
  if (existsSync(path.join(cache, `${digest}-${file.replace(/[^a-zA-Z0-9.]+/g, '-')}`))) return true;
  return downloadable(url);
}

function canUseApt() {
  return process.getuid?.() === 0 && Boolean(which('apt-get'));
}

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    say(`apt-get ${args.join(' ')}`);
    const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0) fail([], `apt-get ${args.join(' ')} failed (exit ${result.status})`);
  };
  if (!aptUpdated) run(['update', '-q']);
  aptUpdated = true;
  run(['install', '-y', '-q', '--no-install-recommends', ...packages]);
  note(`installed ${packages.join(' ')} with apt-get: better-sqlite3 has no prebuilt binary to download here and is compiled`);
}

function say(line) {
  process.stderr.write(`roomcraft set-up: ${line}\n`);
}

/** Says it now (seen with --foreground-scripts or in the failure log) and leaves it for the root postinstall. */
function note(line) {
  say(line);
  try {
    appendFileSync(NOTES, `roomcraft set-up: ${line}\n`);
  } catch {
    // a note that cannot be left is only a note
  }
}

function fail(missing, reason) {
  const packages = [...new Set(missing.map((m) => m.apt).filter(Boolean))];
  const lines = [
    '',
    'roomcraft set-up: better-sqlite3 (the SQLite driver) has no prebuilt binary that npm can download here (offline,',
    'or an unusual platform), so npm compiles it from source, which needs what this machine lacks:',
    ...missing.map((m) => `  - ${m.what}${m.fix ? `\n      ${m.fix}` : ''}`),
    ...(reason ? [`  ${reason}`] : []),
    ...(packages.length
      ? [
          `Install them (on Debian or Ubuntu: sudo apt-get install ${packages.join(' ')}) and run npm ci again;`,
          'run as root where apt-get is, npm ci installs the Debian packages itself.',
        ]
      : ['Then run npm ci again.']),
    '',
  ];
  process.stderr.write(lines.join('\n'));
  process.exit(1);
}
