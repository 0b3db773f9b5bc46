import { credits, type UsageLine } from '../api.js';
import { h } from '../dom.js';
import { when } from '../format.js';
import { usageChart, type DayTotal } from '../components/usage-chart.js';
import type { View } from '../main.js';

const DAYS = 30;
const DAY_MS = 24 * 60 * 60_000;

/** Balance, plan and this period's use (GET /v1/account), and credits spent per day over the last 30 (GET /v1/usage). */
export async function usagePage(view: View): Promise<void> {
  const today = new Date(new Date().toISOString().slice(0, 10));
  const from = new Date(today.getTime() - (DAYS - 1) * DAY_MS);
  const [account, usage] = await Promise.all([
    credits.account(),
    credits.usage(from.toISOString().slice(0, 10), today.toISOString().slice(0, 10)),
  ]);

  const plan = account.plan
    ? [
        ['Plan', account.plan.name],
        ['Monthly credits', String(account.plan.monthlyCredits)],
        ['Add-ons', account.plan.addons.join(', ') || 'none'],
        ['This period', account.period ? `${when(account.period.start)} to ${when(account.period.end)}` : '—'],
      ]
    : [['Plan', 'None: test keys only. An administrator grants plans.']];
  const facts = [
    ['Balance', `${account.balance} credits`],
    ...plan,
    ['Test jobs today', `${account.testKeys.jobsToday} of ${account.testKeys.dailyJobs}`],
  ];

  view.main.append(
    view.heading('Usage and credits'),
    h('section', { class: 'card' }, h('dl', { class: 'facts' }, facts.map(([term, value]) => [h('dt', {}, term!), h('dd', { 'data-fact': term! }, value!)]))),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'usage-days' },
      h('h2', { id: 'usage-days' }, `Credits spent, last ${DAYS} days`),
      usageChart(perDay(usage.days, from)),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'usage-period' },
      h('h2', { id: 'usage-period' }, 'This period, by operation'),
      account.usage.length === 0
        ? h('p', {}, 'Nothing charged yet.')
        : h(
            'div',
            { class: 'table-scroll' },
            h(
              'table',
              {},
              h('thead', {}, h('tr', {}, ['Operation', 'Item', 'Charges', 'Refunds', 'Credits'].map((label) => h('th', { scope: 'col' }, label)))),
              h(
                'tbody',
                {},
                account.usage.map((u) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, u.operation),
                    h('td', {}, u.item),
                    h('td', { class: 'number' }, String(u.charges)),
                    h('td', { class: 'number' }, String(u.refunds)),
                    h('td', { class: 'number' }, String(u.credits)),
                  ),
                ),
              ),
            ),
          ),
    ),
  );
}

/** Net credits spent each day (charges less refunds), every day of the window present, empty ones at 0. */
function perDay(lines: UsageLine[], from: Date): DayTotal[] {
  const days = Array.from({ length: DAYS }, (_, i) => ({ day: new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10), credits: 0 }));
  const byDay = new Map(days.map((d) => [d.day, d]));
  for (const line of lines) {
    const day = byDay.get(line.date.slice(0, 10));
    if (!day) continue;
    if (line.entry === 'charge') day.credits += Math.abs(line.credits);
    if (line.entry === 'refund') day.credits -= Math.abs(line.credits);
  }
  return days;
}
