import { dashboardApi, describeError, v1, type Delivery, type Job } from '../api.js';
import { h, replace, statusLine } from '../dom.js';
import { duration, when } from '../format.js';
import { compareSlider } from '../components/compare-slider.js';
import { keptInput } from '../components/input-store.js';
import { badge } from './jobs.js';
import type { View } from '../main.js';

/** One job: its state, before and after, what the operation reported, and its webhook deliveries. */
export async function jobPage(view: View): Promise<void> {
  const id = view.params.id!;
  const job = await v1.job(id, view.signal);
  const kept = await keptInput(id);
  const before = kept ? URL.createObjectURL(kept) : undefined;
  view.signal.addEventListener('abort', () => before && URL.revokeObjectURL(before));

  const facts: [string, Node | string][] = [
    ['State', badge(job)],
    ['Mode', job.mode],
    ['Created', when(job.createdAt)],
    ['Completed', when(job.completedAt)],
    ['Took', duration(job.createdAt, job.completedAt)],
    ['Credits', String(job.credits ?? 0)],
  ];
  if (job.error) facts.push(['Error', `${job.error.code}: ${job.error.message}`]);

  view.main.append(
    view.heading(`Job ${id.slice(0, 8)}`),
    h('p', {}, h('a', { href: '/dashboard/jobs' }, '← All jobs')),
    h('section', { class: 'card' }, h('dl', { class: 'facts' }, facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]))),
  );
  if (job.output) {
    view.main.append(
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'job-images' },
        h('h2', { id: 'job-images' }, 'Before and after'),
        compareSlider(before, job.output, `job ${id.slice(0, 8)}`),
      ),
    );
  }
  if (job.result) {
    view.main.append(
      h(
        'section',
        { class: 'card' },
        h('details', {}, h('summary', {}, 'What the operation reported'), h('pre', {}, JSON.stringify(job.result, null, 2))),
      ),
    );
  }
  view.main.append(await deliveries(job));
}

/** The job's webhook deliveries and a button that sends its last event again. */
async function deliveries(job: Job): Promise<HTMLElement> {
  const section = h('section', { class: 'card', 'aria-labelledby': 'job-deliveries' }, h('h2', { id: 'job-deliveries' }, 'Webhook deliveries'));
  const list = h('div', {});
  const message = statusLine();
  const error = statusLine('alert');
  const redeliver = h('button', { type: 'button', class: 'secondary' }, 'Redeliver the last event');
  const draw = (rows: Delivery[]) => {
    redeliver.hidden = rows.length === 0;
    replace(
      list,
      rows.length === 0
        ? h('p', {}, 'This job had no webhook.')
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              {},
              h('caption', { class: 'visually-hidden' }, 'Deliveries, newest first'),
              h('thead', {}, h('tr', {}, ['Event', 'URL', 'State', 'Attempts', 'Last answer', 'Created'].map((label) => h('th', { scope: 'col' }, label)))),
              h(
                'tbody',
                {},
                rows.map((d) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, d.event),
                    h('td', { class: 'url' }, d.url),
                    h('td', {}, h('span', { class: `badge ${d.status}` }, d.status)),
                    h('td', { class: 'number' }, String(d.attempts)),
                    h('td', {}, d.lastResponseStatus === null ? (d.lastError ?? '—') : `HTTP ${d.lastResponseStatus}`),
                    h('td', {}, when(d.createdAt)),
                  ),
                ),
              ),
            ),
          ),
    );
  };
  redeliver.addEventListener('click', async () => {
    error.textContent = '';
    try {
      await dashboardApi.redeliver(job.id);
      message.textContent = 'A new delivery of the last event is queued.';
      draw((await dashboardApi.deliveries(job.id)).deliveries);
    } catch (failure) {
      error.textContent = describeError(failure);
    }
  });
  try {
    draw((await dashboardApi.deliveries(job.id)).deliveries);
  } catch (failure) {
    error.textContent = describeError(failure);
  }
  section.append(list, message, error, redeliver);
  return section;
}
