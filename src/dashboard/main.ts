import './styles.css';
import { h, replace } from './dom.js';
import { ApiError, describeError } from './api.js';
import { currentSession, logOut, type Session } from './session.js';
import { authPage } from './pages/auth.js';
import { keysPage } from './pages/keys.js';
import { usagePage } from './pages/usage.js';
import { jobsPage } from './pages/jobs.js';
import { jobPage } from './pages/job.js';
import { playgroundPage } from './pages/playground.js';
import { accountPage } from './pages/account.js';

/** What a page is given: where to draw, the path's parameters, the session, and a signal aborted when it is left. */
export interface View {
  main: HTMLElement;
  params: Record<string, string>;
  query: URLSearchParams;
  session: Session | undefined;
  signal: AbortSignal;
  navigate(path: string): void;
  /** After a log-in or sign-up: reads the new session, then goes to `next` (a dashboard path) or the playground. */
  signedIn(next: string | null): Promise<void>;
  /** Sets the document title and draws the page's heading, which takes focus after a navigation. */
  heading(title: string): HTMLHeadingElement;
}

type Page = (view: View) => Promise<void> | void;

interface Route {
  path: string;
  pattern: RegExp;
  names: string[];
  page: Page;
  /** Shown in the navigation, with this label. */
  nav?: string;
  public?: boolean;
}

const route = (path: string, page: Page, extra: Partial<Route> = {}): Route => {
  const names: string[] = [];
  const pattern = new RegExp(`^${path.replace(/:(\w+)/g, (_, name: string) => (names.push(name), '([^/]+)'))}/?$`);
  return { path, pattern, names, page, ...extra };
};

const ROUTES: Route[] = [
  route('/dashboard/login', (view) => authPage(view, 'login'), { public: true }),
  route('/dashboard/signup', (view) => authPage(view, 'signup'), { public: true }),
  route('/dashboard/playground', playgroundPage, { nav: 'Playground' }),
  route('/dashboard/jobs', jobsPage, { nav: 'Jobs' }),
  route('/dashboard/jobs/:id', jobPage),
  route('/dashboard/keys', keysPage, { nav: 'API keys' }),
  route('/dashboard/usage', usagePage, { nav: 'Usage and credits' }),
  route('/dashboard/account', accountPage, { nav: 'Account' }),
];
const NAVIGATION = ROUTES.filter((r) => r.nav);

const root = document.getElementById('app')!;
let leaving: AbortController | undefined;
let session: Session | undefined;
let first = true;

function navigate(path: string, { push = true } = {}): void {
  if (push) history.pushState(null, '', path);
  void show();
}

async function show(): Promise<void> {
  leaving?.abort();
  const controller = new AbortController();
  leaving = controller;
  const { pathname, search } = location;
  const path = pathname === '/dashboard' || pathname === '/dashboard/' ? (session ? '/dashboard/playground' : '/dashboard/login') : pathname;
  const found = ROUTES.map((r) => ({ r, match: r.pattern.exec(path) })).find((x) => x.match);
  if (!found) return navigate('/dashboard/playground');
  if (!found.r.public && !session) {
    return navigate(`/dashboard/login?next=${encodeURIComponent(pathname + search)}`);
  }
  if (path !== pathname) history.replaceState(null, '', path);
  const params = Object.fromEntries(found.r.names.map((name, i) => [name, decodeURIComponent(found.match![i + 1]!)]));
  const main = h('main', { id: 'main', tabindex: -1 });
  replace(root, header(path), main);
  let title: HTMLHeadingElement | undefined;
  const view: View = {
    main,
    params,
    query: new URLSearchParams(search),
    session,
    signal: controller.signal,
    navigate,
    signedIn,
    heading(text) {
      document.title = `${text} — Roomcraft`;
      title = h('h1', { tabindex: -1 }, text);
      return title;
    },
  };
  try {
    await found.r.page(view);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof ApiError && error.status === 401 && !found.r.public) {
      // The session ended elsewhere (log-out in another tab, expiry): log in again.
      session = undefined;
      return navigate(`/dashboard/login?next=${encodeURIComponent(pathname + search)}`);
    }
    if (!title) main.append(view.heading('The page could not be shown'));
    main.append(h('p', { role: 'alert', class: 'message error' }, describeError(error)));
  }
  // Moving focus to the new page's heading tells screen-reader users the page changed; not on the first load.
  if (!first) title?.focus();
  first = false;
}

function header(path: string): HTMLElement {
  const links = session
    ? NAVIGATION.map((r) => h('li', {}, h('a', { href: r.path, ...(path.startsWith(r.path) ? { 'aria-current': 'page' } : {}) }, r.nav!)))
    : [];
  const account = session
    ? h(
        'div',
        { class: 'account' },
        h('span', { class: 'who' }, session.email),
        h('button', { type: 'button', class: 'link', onclick: () => void leave() }, 'Log out'),
      )
    : undefined;
  return h(
    'header',
    { class: 'top' },
    h('a', { href: '/dashboard', class: 'brand' }, 'Roomcraft'),
    session ? h('nav', { 'aria-label': 'Dashboard' }, h('ul', {}, links)) : undefined,
    account,
  );
}

async function leave(): Promise<void> {
  await logOut();
  session = undefined;
  navigate('/dashboard/login');
}

async function signedIn(next: string | null): Promise<void> {
  session = await currentSession();
  navigate(next?.startsWith('/dashboard/') ? next : '/dashboard/playground');
}

// Links inside the dashboard change the page without reloading it.
document.addEventListener('click', (event) => {
  const link = (event.target as Element).closest?.('a');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || link.target) return;
  const url = new URL(link.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void show());

session = await currentSession();
await show();
