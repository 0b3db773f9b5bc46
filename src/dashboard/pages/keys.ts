import { dashboardApi, describeError, type KeyListing } from '../api.js';
import { field, h, replace, statusLine } from '../dom.js';
import { when } from '../format.js';
import type { View } from '../main.js';

/** API keys (create, shown once; list; revoke) and the webhook signing secret (show, rotate). */
export async function keysPage(view: View): Promise<void> {
  const message = statusLine();
  const error = statusLine('alert');
  const created = h('div', { class: 'created-key' });
  const list = h('div', {});

  const kind = h('select', { name: 'kind' }, h('option', { value: 'test' }, 'Test (free, watermarked)'), h('option', { value: 'live' }, 'Production'));
  const create = h('button', { type: 'submit' }, 'Create a key');
  const form = h('form', { class: 'row' }, field('Kind of key', kind), create);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    create.disabled = true;
    try {
      const key = await dashboardApi.createKey(kind.value as 'test' | 'live');
      showCreated(key.key);
      await refresh();
    } catch (failure) {
      error.textContent = describeError(failure);
    } finally {
      create.disabled = false;
    }
  });

  function showCreated(key: string): void {
    const value = h('input', { type: 'text', readonly: true, value: key, class: 'secret', spellcheck: false });
    const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy');
    copy.addEventListener('click', async () => {
      await navigator.clipboard.writeText(key).then(
        () => (message.textContent = 'The key is on the clipboard.'),
        () => (value.select(), (message.textContent = 'Select the key and copy it.')),
      );
    });
    replace(
      created,
      h(
        'div',
        { class: 'card notice', role: 'region', 'aria-label': 'Your new key' },
        h('h3', {}, 'Your new key'),
        h('p', {}, 'Copy it now: it is shown only this once. Afterwards only its first characters are listed.'),
        h('div', { class: 'row' }, field('API key', value), copy),
      ),
    );
    value.focus();
    value.select();
  }

  async function refresh(): Promise<void> {
    const { keys } = await dashboardApi.keys();
    replace(list, keys.length === 0 ? h('p', {}, 'No keys yet.') : keyTable(keys));
  }

  function keyTable(keys: KeyListing[]): HTMLElement {
    return h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'keys' },
        h('caption', { class: 'visually-hidden' }, 'Your API keys'),
        h(
          'thead',
          {},
          h('tr', {}, ['Key', 'Kind', 'Created', 'State', ''].map((label) => h('th', { scope: 'col' }, label))),
        ),
        h(
          'tbody',
          {},
          keys.map((key) => {
            const revoke = h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke ${key.prefix}…` }, 'Revoke');
            revoke.addEventListener('click', async () => {
              if (!confirm(`Revoke the key ${key.prefix}…? Requests made with it will be refused at once.`)) return;
              try {
                await dashboardApi.revokeKey(key.id);
                message.textContent = `The key ${key.prefix}… is revoked.`;
                await refresh();
              } catch (failure) {
                error.textContent = describeError(failure);
              }
            });
            return h(
              'tr',
              { 'data-prefix': key.prefix },
              h('td', {}, h('code', {}, `${key.prefix}…`)),
              h('td', {}, key.kind === 'live' ? 'Production' : 'Test'),
              h('td', {}, when(key.createdAt)),
              h('td', { class: 'state' }, key.revokedAt ? `Revoked ${when(key.revokedAt)}` : 'Active'),
              h('td', {}, key.revokedAt ? '' : revoke),
            );
          }),
        ),
      ),
    );
  }

  // The webhook secret: hidden until asked for, rotated after a confirmation.
  const secretBox = h('div', {});
  const showSecret = h('button', { type: 'button', class: 'secondary' }, 'Show the secret');
  const rotate = h('button', { type: 'button', class: 'danger' }, 'Rotate the secret');
  const displaySecret = (secret: string) =>
    replace(secretBox, field('Webhook signing secret', h('input', { type: 'text', readonly: true, value: secret, class: 'secret', spellcheck: false })));
  showSecret.addEventListener('click', async () => {
    try {
      displaySecret((await dashboardApi.webhookSecret()).secret);
    } catch (failure) {
      error.textContent = describeError(failure);
    }
  });
  rotate.addEventListener('click', async () => {
    if (!confirm('Rotate the webhook secret? Deliveries are signed with the new one from now on; update your receiver.')) return;
    try {
      displaySecret((await dashboardApi.rotateWebhookSecret()).secret);
      message.textContent = 'The webhook secret was rotated.';
    } catch (failure) {
      error.textContent = describeError(failure);
    }
  });

  view.main.append(
    view.heading('API keys'),
    error,
    message,
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'keys-create' },
      h('h2', { id: 'keys-create' }, 'Create a key'),
      h('p', { class: 'hint' }, 'A test key works at once: no credits spent, a TEST watermark on results and a daily cap. A production key needs a plan.'),
      form,
      created,
    ),
    h('section', { class: 'card', 'aria-labelledby': 'keys-list' }, h('h2', { id: 'keys-list' }, 'Your keys'), list),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'keys-webhook' },
      h('h2', { id: 'keys-webhook' }, 'Webhook signing secret'),
      h('p', { class: 'hint' }, 'Webhook deliveries are signed with it (Standard Webhooks); verify the signature before trusting a delivery.'),
      h('div', { class: 'row' }, showSecret, rotate),
      secretBox,
    ),
  );
  await refresh();
}
