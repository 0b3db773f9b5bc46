import assert from 'node:assert/strict';
import { mkdir, mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { launchChromium } from './helpers/browser.js';
import { browserSession } from './helpers/browser-session.js';
import { dataUrl, makeImage } from './helpers/fixtures.js';
import { LicenceService } from '../src/services/licence-service.js';
import { LicenceRepository } from '../src/repositories/licence-repository.js';
import { UserRepository } from '../src/repositories/user-repository.js';
import { CreditRepository } from '../src/repositories/credit-repository.js';
import { HANG_MS, TEST_TIMEOUT_MS } from './helpers/until.js';

/**
 * The dashboard in a real browser (headless Debian Chromium through playwright-core) against the real service on a
 * loopback port: sign up, create a key, run an upscale from the playground, draw a mask, see the result, the jobs;
 * with a plan granted, create a production key and spend credits with it, and see them on the usage page; change the
 * password, log out and back in with it; revoke the key and see the API refuse it. Every wait is on something the page shows, with HANG_MS as
 * the deadline, never a sleep. Each page is photographed; with ROOMCRAFT_UPDATE_SCREENSHOTS=1 into docs/images/
 * (the committed ones), otherwise into a temporary directory, so a test run leaves the work tree alone.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const HANG = { timeout: TEST_TIMEOUT_MS };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the dashboard in Chromium', () => {
  let t: TestApp;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let shots: string;
  let key: { value: string; prefix: string };
  const EMAIL = 'browser@example.com';
  const PASSWORD = 'a long enough password';
  const NEW_PASSWORD = 'another long password';
  const photo = { width: 96, height: 64 };
  let photoBytes: Buffer;
  const pageErrors: string[] = [];

  const shoot = async (name: string, viewport = DESKTOP) => {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(shots, `dashboard-${name}.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
  };
  const heading = (text: string) => page.getByRole('heading', { level: 1, name: text }).waitFor();

  before(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The session's Origin check and the output URLs both name the address the browser uses.
    t = await startTestApp({ publicUrl: origin });
    await t.app.listen({ host: '127.0.0.1', port });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: DESKTOP });
    page.setDefaultTimeout(HANG_MS);
    // A policy violation or script error on any page fails the test at its end. Refused requests are logged by the
    // browser too (the session check before log-in answers 401): the steps check what the page shows of those.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    shots = process.env.ROOMCRAFT_UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'docs/images') : await mkdtemp(path.join(os.tmpdir(), 'roomcraft-shots-'));
    await mkdir(shots, { recursive: true });
    photoBytes = await makeImage(photo.width, photo.height, 'png');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves its pages under a strict Content-Security-Policy, scripts and styles from its own origin only', async () => {
    const response = await fetch(`${origin}/dashboard/login`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, new RegExp(`img-src 'self' data: blob: ${origin}`));
    const html = await response.text();
    assert.doesNotMatch(html, /<script>|<script [^>]*>[^<]/, 'no inline script');
    for (const asset of ['app.js', 'app.css']) {
      const answer = await fetch(`${origin}/dashboard/assets/${asset}`);
      assert.equal(answer.status, 200, `${asset}: ${answer.status} (is dist/dashboard built? npm run build)`);
      // Revalidated on each load: unchanged, it costs a 304 and no body.
      const again = await fetch(`${origin}/dashboard/assets/${asset}`, { headers: { 'if-none-match': answer.headers.get('etag')! } });
      assert.equal(again.status, 304);
    }
    assert.equal((await fetch(`${origin}/dashboard/assets/..%2Fmain.js`)).status, 404);
  });

  it('signs up, and lands on the playground logged in', HANG, async () => {
    await page.goto(`${origin}/dashboard/login`);
    await heading('Log in');
    await shoot('login');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await heading('Sign up');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await shoot('signup');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await heading('Playground');
    assert.equal(new URL(page.url()).pathname, '/dashboard/playground');
    await page.getByText(EMAIL).waitFor();
  });

  it('creates a test key, shown once, and lists it by its prefix', HANG, async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await heading('API keys');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const shown = page.getByLabel('API key');
    await shown.waitFor();
    const value = await shown.inputValue();
    const row = page.locator('tr[data-prefix]');
    await row.waitFor();
    const prefix = (await row.getAttribute('data-prefix'))!;
    assert.ok(value.startsWith(prefix) && value.length > prefix.length, `${value} is the key of ${prefix}…`);
    key = { value, prefix };
    // The key works on the API before it is revoked (the last test sees it refused).
    const jobs = await fetch(`${origin}/v1/jobs`, { headers: { authorization: `Bearer ${key.value}` } });
    assert.equal(jobs.status, 200);
    await page.getByRole('button', { name: 'Show the secret' }).click();
    assert.match(await page.getByRole('textbox', { name: 'Webhook signing secret' }).inputValue(), /^whsec_/);
    await shoot('keys');
  });

  it('runs an upscale of an uploaded photo from the playground and shows before and after with a slider', HANG, async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    await heading('Playground');
    await page.getByLabel('Photo file').setInputFiles({ name: 'room.png', mimeType: 'image/png', buffer: photoBytes });
    await page.getByLabel('Operation').selectOption('upscale');
    await page.getByLabel('Scale').selectOption('2');
    await page.getByRole('button', { name: 'Run' }).click();
    const slider = page.getByLabel('Before / after');
    await slider.waitFor();
    // The result is the output image at twice the photo's size, shown under the before image.
    const after = page.locator('.result img.compare-after');
    await page.waitForFunction((img) => (img as HTMLImageElement).complete, await after.elementHandle());
    const size = await after.evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]);
    assert.deepEqual(size, [photo.width * 2, photo.height * 2]);
    // The slider is a range input: the keyboard moves it, and the before image's clip follows.
    await slider.focus();
    await page.keyboard.press('Home');
    assert.equal(await slider.inputValue(), '0');
    assert.equal(await page.locator('.result img.compare-before').evaluate((img) => img.style.clipPath), 'inset(0px 100% 0px 0px)');
    await page.keyboard.press('End');
    assert.equal(await slider.inputValue(), '100');
    await page.keyboard.press('PageDown');
    await shoot('playground');
    await shoot('playground-phone', PHONE);
  });

  it('draws a mask with the brush on the declutter form: the preview is white where painted, at the photo’s exact size', HANG, async () => {
    await page.getByLabel('Operation').selectOption('declutter');
    const canvas = page.locator('canvas.mask-overlay');
    await canvas.waitFor();
    const box = (await canvas.boundingBox())!;
    // A stroke across the middle, with the mouse, as a person would drag.
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.45, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.55, { steps: 8 });
    await page.mouse.up();
    const preview = page.getByRole('img', { name: /Mask preview/ });
    await page.waitForFunction((img) => Number(img.dataset.coverage) > 0, await preview.elementHandle());
    const mask = Buffer.from((await preview.getAttribute('src'))!.replace(/^data:image\/png;base64,/, ''), 'base64');
    const { data, info } = await sharp(mask).greyscale().raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([info.width, info.height], [photo.width, photo.height]);
    const at = (x: number, y: number) => data[(Math.round(y) * info.width + Math.round(x)) * info.channels]!;
    assert.equal(at(photo.width * 0.5, photo.height * 0.47), 255, 'painted under the stroke');
    assert.equal(at(2, 2), 0, 'black away from it');
    await shoot('playground-mask');
  });

  it('lists the job, and its page shows the result with the slider and its (absent) webhook deliveries', HANG, async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    await heading('Jobs');
    const rows = page.locator('table.jobs tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.match((await rows.first().textContent()) ?? '', /upscale.*success/);
    await shoot('jobs');
    await rows.first().getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: /^Job / }).waitFor();
    await page.getByLabel('Before / after').waitFor();
    await page.getByText('This job had no webhook.').waitFor();
    await shoot('job');
  });

  it('with a plan granted, creates a production key on the keys page, whose upscales are charged', HANG, async () => {
    // The grant an administrator makes (roomcraft licences grant), through the service's own classes.
    const db = t.database.db;
    const licences = new LicenceService({ licences: new LicenceRepository(db), users: new UserRepository(db), credits: new CreditRepository(db) });
    await licences.definePlan({ name: 'starter', monthlyCredits: 50, addons: ['enhancer'] });
    const granted = await licences.grant(EMAIL, 'starter', { grantedBy: 'browser test' });
    assert.ok('balance' in granted && granted.balance === 50, JSON.stringify(granted));

    await page.getByRole('link', { name: 'API keys' }).click();
    await heading('API keys');
    await page.getByLabel('Kind of key').selectOption('live');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const live = await page.getByLabel('API key').inputValue();
    await page.locator('tr[data-prefix]', { hasText: 'Production' }).waitFor();

    // Two upscales (1 credit each) and an advanced one (2 credits), each answered once done.
    const image = dataUrl(photoBytes);
    const runs = [
      { operation: 'upscale', cost: 1 },
      { operation: 'upscale', cost: 1 },
      { operation: 'upscale_advanced', cost: 2 },
    ];
    let balance = 50;
    for (const { operation, cost } of runs) {
      const answer = await fetch(`${origin}/v1/${operation}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${live}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: image, scale: 2 }),
      });
      const body = (await answer.json()) as { status: string };
      assert.equal(answer.status, 200, JSON.stringify(body));
      assert.equal(body.status, 'success');
      balance -= cost;
      assert.equal(answer.headers.get('x-credits-charged'), String(cost));
      assert.equal(answer.headers.get('x-credits-balance'), String(balance));
    }
  });

  it('shows the balance, the plan, the charged operations and the chart of the last 30 days', HANG, async () => {
    await page.getByRole('link', { name: 'Usage and credits' }).click();
    await heading('Usage and credits');
    await page.locator('[data-fact="Balance"]').waitFor();
    assert.equal(await page.locator('[data-fact="Balance"]').textContent(), '46 credits');
    assert.equal(await page.locator('[data-fact="Plan"]').textContent(), 'starter');
    // This period by operation: upscale twice (2 credits), upscale_advanced once (2).
    const byOperation = page.getByRole('region', { name: 'This period, by operation' });
    const line = (operation: string) => byOperation.locator('tbody tr', { has: page.getByRole('cell', { name: operation, exact: true }) });
    assert.deepEqual(await line('upscale').locator('td').allTextContents(), ['upscale', 'operation', '2', '0', '2']);
    assert.deepEqual(await line('upscale_advanced').locator('td').allTextContents(), ['upscale_advanced', 'operation', '1', '0', '2']);
    // Thirty days, today's bar the only one drawn, at full height: 4 credits.
    const bars = page.locator('svg.chart rect.bar');
    assert.equal(await bars.count(), 30);
    const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
    assert.deepEqual(
      heights.map((height) => height > 0),
      [...Array<boolean>(29).fill(false), true],
    );
    assert.match((await page.locator('svg.chart').getAttribute('aria-label')) ?? '', /4 in all/);
    await page.getByText('The numbers').click();
    await page.getByRole('cell', { name: new Date().toISOString().slice(0, 10) }).waitFor();
    await shoot('usage');
  });

  it('changes the password on the account page (other sessions end), logs out, and logs in with the new one only', HANG, async () => {
    // Another browser of the same user, whose session the change ends.
    const other = await browserSession(t.app, origin, { email: EMAIL, password: PASSWORD }, 'log-in');
    const otherAlive = async () => (await t.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie: other.cookie } })).statusCode;
    assert.equal(await otherAlive(), 200);

    await page.getByRole('link', { name: 'Account' }).click();
    await heading('Account');
    const current = page.getByLabel('Current password', { exact: true });
    const fresh = page.getByLabel('New password', { exact: true });
    const confirmation = page.getByLabel('Confirm the new password');
    const alert = page.getByRole('alert');
    const submit = page.getByRole('button', { name: 'Change the password' });

    // Two new passwords that differ: refused in the page, announced, the confirmation marked and focused.
    await current.fill(PASSWORD);
    await fresh.fill(NEW_PASSWORD);
    await confirmation.fill(`${NEW_PASSWORD}!`);
    await submit.click();
    await alert.filter({ hasText: 'The two new passwords differ' }).waitFor();
    assert.equal(await confirmation.getAttribute('aria-invalid'), 'true');
    assert.ok(await confirmation.evaluate((input) => input === document.activeElement));

    // A wrong current password: refused by the service (401 invalid_credentials), the current field marked.
    await current.fill('not the password at all');
    await confirmation.fill(NEW_PASSWORD);
    await submit.click();
    await alert.filter({ hasText: 'The current password is wrong.' }).waitFor();
    assert.equal(await current.getAttribute('aria-invalid'), 'true');
    assert.equal(await confirmation.getAttribute('aria-invalid'), null);
    assert.equal(await otherAlive(), 200);

    // From the keyboard alone: type into each field, Tab to the next, Enter submits.
    await current.fill('');
    await fresh.fill('');
    await confirmation.fill('');
    await current.focus();
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Tab');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Your password is changed. 1 other session was logged out.' }).waitFor();
    assert.equal(await page.locator('main [role="alert"]').textContent(), '', 'the earlier error is gone');
    assert.equal(await current.inputValue(), '');
    assert.equal(await otherAlive(), 401);
    await shoot('account');

    await page.getByRole('button', { name: 'Log out' }).click();
    await heading('Log in');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await alert.filter({ hasText: /./ }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/dashboard/login', 'the old password is refused');
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Playground');
    await page.getByText(EMAIL).waitFor();
  });

  it('revokes the key, after which the API refuses it with 401', HANG, async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await heading('API keys');
    page.once('dialog', (dialog) => void dialog.accept());
    const row = page.locator(`tr[data-prefix="${key.prefix}"]`);
    await row.getByRole('button', { name: /Revoke/ }).click();
    await row.locator('td.state', { hasText: 'Revoked' }).waitFor();
    const refused = await fetch(`${origin}/v1/jobs`, { headers: { authorization: `Bearer ${key.value}` } });
    assert.equal(refused.status, 401);
    assert.deepEqual(pageErrors, [], 'no script error or policy violation on any page');
  });
});
