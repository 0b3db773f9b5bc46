import { v1, type Job } from '../api.js';
import { field, h, replace } from '../dom.js';
import { duration, when } from '../format.js';
import type { View } from '../main.js';

const PAGE_SIZE = '20';

/** The caller's jobs, newest first, a page at a time (GET /v1/jobs and its cursor), filtered by state. */
export async function jobsPage(view: View): Promise<void> {
  const status = h(
    'select',
    { name: 'status' },
    ['', 'pending', 'success', 'failed'].map((value) => h('option', { value, ...(view.query.get('status') === value ? { selected: true } : {}) }, value || 'Any')),
  );
  const body = h('tbody', {});
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Show more');
  const empty = h('p', { hidden: true }, 'No jobs yet: try the ', h('a', { href: '/dashboard/playground' }, 'playground'), '.');
  let next: string | undefined;

  async function load(reset: boolean): Promise<void> {
    const query = new URLSearchParams({ limit: PAGE_SIZE });
    if (status.value) query.set('status', status.value);
    if (!reset && next) query.set('cursor', next);
    const page = await v1.jobs(query, view.signal);
    if (reset) replace(body);
    body.append(...page.jobs.map(row));
    next = page.next;
    more.hidden = !next;
    empty.hidden = body.childElementCount > 0;
  }

  status.addEventListener('change', () => {
    history.replaceState(null, '', status.value ? `?status=${status.value}` : location.pathname);
    void load(true);
  });
  more.addEventListener('click', () => void load(false));

  view.main.append(
    view.heading('Jobs'),
    h('div', { class: 'row' }, field('State', status)),
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'jobs' },
        h('caption', { class: 'visually-hidden' }, 'Your jobs, newest first'),
        h('thead', {}, h('tr', {}, ['Job', 'Mode', 'State', 'Created', 'Took', 'Credits'].map((label) => h('th', { scope: 'col' }, label)))),
        body,
      ),
    ),
    empty,
    more,
  );
  await load(true);
}

function row(job: Job): HTMLTableRowElement {
  return h(
    'tr',
    {},
    h('td', {}, h('a', { href: `/dashboard/jobs/${encodeURIComponent(job.id)}` }, h('code', {}, job.id.slice(0, 8)))),
    h('td', {}, job.mode),
    h('td', {}, badge(job)),
    h('td', {}, when(job.createdAt)),
    h('td', {}, duration(job.createdAt, job.completedAt)),
    h('td', { class: 'number' }, String(job.credits ?? 0)),
  );
}

export function badge(job: Job): HTMLElement {
  const text = job.status === 'pending' ? (job.progress > 0 ? `running ${Math.round(job.progress * 100)}%` : 'pending') : job.status;
  return h('span', { class: `badge ${job.status}` }, text);
}
