import { ApiError, dashboardApi, describeError } from '../api.js';
import { field, h, statusLine } from '../dom.js';
import type { View } from '../main.js';

/** The service's limits on a password (src/security/password.ts); the service checks them again. */
const MIN_PASSWORD = 8;
const MAX_PASSWORD = 256;

/**
 * The account: who is logged in, and a password change (POST /dashboard/api/password: the current password and the
 * new one; the user's other sessions end, this one stays). The form checks itself (novalidate) so that every mistake
 * is announced the same way: role=alert, its field marked invalid and focused; success is announced politely and the
 * form emptied.
 */
export function accountPage(view: View): void {
  const current = h('input', { type: 'password', name: 'current-password', autocomplete: 'current-password', required: true, maxlength: MAX_PASSWORD });
  const next = h('input', {
    type: 'password',
    name: 'new-password',
    autocomplete: 'new-password',
    required: true,
    minlength: MIN_PASSWORD,
    maxlength: MAX_PASSWORD,
  });
  const confirmation = h('input', { type: 'password', name: 'confirm-password', autocomplete: 'new-password', required: true, maxlength: MAX_PASSWORD });
  const error = statusLine('alert');
  const done = statusLine();
  const submit = h('button', { type: 'submit' }, 'Change the password');
  const fields = [current, next, confirmation];

  /** Announces `text`, marks `control` invalid (tied to the message) and puts the focus on it. */
  const refuse = (text: string, control: HTMLInputElement) => {
    error.id ||= 'password-error';
    error.textContent = text;
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-errormessage', error.id);
    control.focus();
  };

  const form = h(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'account-password', novalidate: true },
    h('h2', { id: 'account-password' }, 'Change the password'),
    h('p', { class: 'hint' }, 'Your other sessions (other browsers, other devices) are logged out; this one stays.'),
    field('Current password', current),
    field('New password', next, `At least ${MIN_PASSWORD} characters.`),
    field('Confirm the new password', confirmation),
    error,
    done,
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    done.textContent = '';
    for (const control of fields) control.removeAttribute('aria-invalid');
    if (!current.value) return refuse('Enter your current password.', current);
    if (next.value.length < MIN_PASSWORD) return refuse(`The new password needs at least ${MIN_PASSWORD} characters.`, next);
    if (next.value !== confirmation.value) return refuse('The two new passwords differ: type the same one twice.', confirmation);
    if (next.value === current.value) return refuse('The new password is the current one: choose another.', next);
    submit.disabled = true;
    try {
      const { endedSessions } = await dashboardApi.changePassword(current.value, next.value);
      for (const control of fields) control.value = '';
      const others = endedSessions === 0 ? 'No other session was open.' : `${endedSessions} other session${endedSessions === 1 ? ' was' : 's were'} logged out.`;
      done.textContent = `Your password is changed. ${others}`;
    } catch (failure) {
      const wrong = failure instanceof ApiError && failure.problem.code === 'invalid_credentials';
      refuse(wrong ? 'The current password is wrong.' : describeError(failure), wrong ? current : next);
    } finally {
      submit.disabled = false;
    }
  });

  view.main.append(
    view.heading('Account'),
    h('section', { class: 'card narrow', 'aria-label': 'You' }, h('dl', { class: 'facts' }, h('dt', {}, 'Email'), h('dd', {}, view.session?.email ?? '—'))),
    form,
  );
}
