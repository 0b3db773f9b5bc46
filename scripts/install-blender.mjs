// Installs Blender, the staging engine's renderer, when it is missing (the root package's postinstall runs this).
//
// Staging (POST /v1/furnish) renders furniture with Debian's Blender 3.4 (Cycles on the CPU). The README's two
// commands must stay all a new user runs, so the set-up installs it: as root where apt-get is, `apt-get install
// blender`. Anywhere else it only says how; the service runs without it and answers staging requests with
// 503 renderer_unavailable, and /status.json says why. ROOMCRAFT_SKIP_BLENDER=1 skips this (operators who render on
// other machines). An already installed Blender (ROOMCRAFT_BLENDER or `blender` on PATH) is left alone.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const executable = process.env.ROOMCRAFT_BLENDER || 'blender';
if (process.env.ROOMCRAFT_SKIP_BLENDER === '1' || which(executable)) process.exit(0);

const say = (line) => process.stderr.write(`roomcraft set-up: ${line}\n`);
if (process.getuid?.() !== 0 || !which('apt-get')) {
  say('Blender is not installed: staging (POST /v1/furnish) will answer 503 until it is.');
  say('Install it with: sudo apt-get install -y blender   (Debian or Ubuntu; Blender 3.4 or later)');
  process.exit(0);
}
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-q'], ['install', '-y', '-q', '--no-install-recommends', 'blender']]) {
  say(`apt-get ${args.join(' ')} (Blender renders the staging engine's furniture)`);
  const result = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    say(`apt-get ${args.join(' ')} failed (exit ${result.status}); staging will answer 503 until Blender is installed.`);
    process.exit(0);
  }
}
say(which(executable) ? 'installed Blender with apt-get' : 'apt-get finished but blender is still not on PATH');

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
