// Installs Chromium, the browser the dashboard's browser tests drive, when it is missing (the root package's
// postinstall runs this).
//
// The tests (test/dashboard.browser.test.ts) drive Debian's chromium through playwright-core, which never downloads a
// browser of its own here. `npm ci && npm test` must stay all a new user runs, so the set-up installs it: as root
// where apt-get is, `apt-get install chromium`. Anywhere else it only says how; the service itself never needs it.
// ROOMCRAFT_SKIP_CHROMIUM=1 skips this, and so does an install without the dev dependencies (`npm ci --omit=dev`:
// no playwright-core, so no browser tests to run). An installed browser (ROOMCRAFT_CHROMIUM, or `chromium` or
// `chromium-browser` on PATH) is left alone.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.dirname(import.meta.dirname);
const candidates = process.env.ROOMCRAFT_CHROMIUM ? [process.env.ROOMCRAFT_CHROMIUM] : ['chromium', 'chromium-browser'];
const withoutTests = !existsSync(path.join(ROOT, 'node_modules', 'playwright-core'));
if (process.env.ROOMCRAFT_SKIP_CHROMIUM === '1' || withoutTests || candidates.some(which)) process.exit(0);

const say = (line) => process.stderr.write(`roomcraft set-up: ${line}\n`);
if (process.getuid?.() !== 0 || !which('apt-get')) {
  say('Chromium is not installed: the dashboard\'s browser tests will fail until it is (the service runs without it).');
  say('Install it with: sudo apt-get install -y chromium   (Debian; on Ubuntu, or elsewhere, point ROOMCRAFT_CHROMIUM at a Chromium or Chrome)');
  process.exit(0);
}
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-q'], ['install', '-y', '-q', '--no-install-recommends', 'chromium']]) {
  say(`apt-get ${args.join(' ')} (the dashboard's browser tests drive Chromium)`);
  const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    say(`apt-get ${args.join(' ')} failed (exit ${result.status}); the browser tests will fail until Chromium is installed.`);
    process.exit(0);
  }
}
say(candidates.some(which) ? 'installed Chromium with apt-get' : 'apt-get finished but chromium is still not on PATH');

function which(command) {
  const paths = command.includes('/') ? [command] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return paths.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
