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
import { makeImage } from './helpers/fixtures.js';
import { HANG_MS, TEST_TIMEOUT_MS } from './helpers/until.js';

/**
 * The dashboard in a real browser (headless Debian Chromium through playwright-core) against the real service on a
 * loopback port: sign up, create a key, run an upscale from the playground, draw a mask, see the result, the jobs,
 * the usage, revoke the key and see the API refuse it. Every wait is on something the page shows, with HANG_MS as
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
    await page.getByLabel('Email').fill('browser@example.com');
    await page.getByLabel('Password').fill('a long enough password');
    await shoot('signup');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await heading('Playground');
    assert.equal(new URL(page.url()).pathname, '/dashboard/playground');
    await page.getByText('browser@example.com').waitFor();
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

  it('shows the balance, the plan and the chart of the last 30 days', HANG, async () => {
    await page.getByRole('link', { name: 'Usage and credits' }).click();
    await heading('Usage and credits');
    await page.locator('[data-fact="Balance"]').waitFor();
    assert.equal(await page.locator('svg.chart rect.bar').count(), 30);
    await shoot('usage');
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
