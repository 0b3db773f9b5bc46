import { h, svg } from '../dom.js';

export interface DayTotal {
  /** YYYY-MM-DD (UTC). */
  day: string;
  credits: number;
}

const WIDTH = 900;
const HEIGHT = 200;
const AXIS = 28;

/**
 * Credits spent per day as SVG bars, scaled to the busiest day, with its numbers also in a table below for screen
 * readers and for reading exact values (the picture alone says nothing to them). A day whose refunds outweigh its
 * charges (a job charged the day before failed) has no bar.
 */
export function usageChart(days: DayTotal[]): HTMLElement {
  const most = Math.max(1, ...days.map((d) => d.credits));
  const slot = (WIDTH - AXIS) / Math.max(1, days.length);
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const bars = days.map((d, i) => {
    const height = ((HEIGHT - 20) * d.credits) / most;
    return svg(
      'rect',
      { x: AXIS + i * slot + slot * 0.15, y: HEIGHT - height, width: slot * 0.7, height, class: 'bar' },
      svg('title', {}, `${d.day}: ${d.credits} credits`),
    );
  });
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${WIDTH} ${HEIGHT + 20}`,
      role: 'img',
      'aria-label': `Credits per day over the last ${days.length} days: ${total} in all, at most ${most} in a day`,
      class: 'chart',
    },
    svg('line', { x1: AXIS, y1: HEIGHT, x2: WIDTH, y2: HEIGHT, class: 'axis' }),
    svg('text', { x: AXIS - 4, y: 14, class: 'tick', 'text-anchor': 'end' }, String(most)),
    svg('text', { x: AXIS - 4, y: HEIGHT, class: 'tick', 'text-anchor': 'end' }, '0'),
    svg('text', { x: AXIS, y: HEIGHT + 16, class: 'tick' }, days[0]?.day.slice(5) ?? ''),
    svg('text', { x: WIDTH, y: HEIGHT + 16, class: 'tick', 'text-anchor': 'end' }, days.at(-1)?.day.slice(5) ?? ''),
    bars,
  );
  const table = h(
    'table',
    {},
    h('caption', {}, 'Credits per day'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, 'Credits'))),
    h(
      'tbody',
      {},
      days.filter((d) => d.credits !== 0).map((d) => h('tr', {}, h('td', {}, d.day), h('td', { class: 'number' }, String(d.credits)))),
    ),
  );
  const numbers = total === 0 ? h('p', {}, 'No credits spent on these days.') : table;
  return h('div', { class: 'chart-box' }, chart, h('details', {}, h('summary', {}, 'The numbers'), numbers));
}
