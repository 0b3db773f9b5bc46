import { field, h, statusLine } from '../dom.js';
import { describeError } from '../api.js';
import { logIn } from '../session.js';
import type { View } from '../main.js';

/** Log-in and sign-up: one form, email and password; the other one is a link away. */
export function authPage(view: View, kind: 'login' | 'signup'): void {
  const signup = kind === 'signup';
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'email', required: true, maxlength: 254 });
  const password = h('input', {
    type: 'password',
    name: 'password',
    autocomplete: signup ? 'new-password' : 'current-password',
    required: true,
    ...(signup ? { minlength: 8 } : {}),
  });
  const error = statusLine('alert');
  const submit = h('button', { type: 'submit' }, signup ? 'Create the account' : 'Log in');
  const form = h(
    'form',
    { class: 'card narrow', novalidate: false },
    field('Email', email),
    field('Password', password, signup ? 'At least 8 characters.' : undefined),
    error,
    submit,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    submit.disabled = true;
    error.textContent = '';
    try {
      await logIn(kind, email.value.trim(), password.value);
      await view.signedIn(view.query.get('next'));
    } catch (failure) {
      error.textContent = describeError(failure);
      submit.disabled = false;
    }
  });
  const other = signup
    ? h('p', {}, 'Already have an account? ', h('a', { href: `/dashboard/login${location.search}` }, 'Log in'))
    : h('p', {}, 'No account yet? ', h('a', { href: `/dashboard/signup${location.search}` }, 'Sign up'), ' — then create a free test key at once.');
  view.main.append(view.heading(signup ? 'Sign up' : 'Log in'), form, other);
}
