import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * The Chromium the browser tests drive: ROOMCRAFT_CHROMIUM, else `chromium` or `chromium-browser` on PATH (Debian's
 * package, which the set-up installs: scripts/install-chromium.mjs). playwright-core never downloads a browser here.
 * None found is a failure that says how to install one, never a silent skip: CI must run these tests.
 */
export function chromiumExecutable(): string {
  const names = process.env.ROOMCRAFT_CHROMIUM ? [process.env.ROOMCRAFT_CHROMIUM] : ['chromium', 'chromium-browser'];
  for (const name of names) {
    const candidates = name.includes('/') ? [name] : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name));
    for (const candidate of candidates) {
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not this one
      }
    }
  }
  throw new Error(
    `no Chromium found (looked for ${names.join(', ')}): the dashboard's browser tests need one. ` +
      'Install it with `apt-get install -y chromium` (what `npm ci` does as root on Debian), or set ROOMCRAFT_CHROMIUM to a Chromium or Chrome executable.',
  );
}

/** Headless Chromium. As root (CI, containers) Chromium's sandbox cannot start, so it runs without it there. */
export function launchChromium(): Promise<Browser> {
  const asRoot = process.getuid?.() === 0;
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    args: [...(asRoot ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
  });
}
