import { h, uid } from '../dom.js';

/**
 * Before and after, one over the other: the after image below, the before image above it clipped to the left share
 * the range input sets. The range is the control, so it works with the keyboard (arrows, Home, End) and with screen
 * readers; dragging on the picture moves it too.
 */
export function compareSlider(before: string | undefined, after: string, alt: string): HTMLElement {
  const afterImage = h('img', { src: after, alt: `After: ${alt}`, class: 'compare-after', decoding: 'async' });
  if (before === undefined) {
    return h('figure', { class: 'compare' }, h('div', { class: 'compare-frame' }, afterImage), h('figcaption', {}, 'Result (the input is not kept)'));
  }
  const beforeImage = h('img', { src: before, alt: `Before: ${alt}`, class: 'compare-before', decoding: 'async' });
  const id = uid('compare');
  const range = h('input', { type: 'range', id, min: 0, max: 100, step: 1, value: 50, class: 'compare-range' });
  const show = () => {
    const share = Number(range.value);
    beforeImage.style.setProperty('clip-path', `inset(0 ${100 - share}% 0 0)`);
    handle.style.setProperty('left', `${share}%`);
    range.setAttribute('aria-valuetext', `${share}% before, ${100 - share}% after`);
  };
  const handle = h('div', { class: 'compare-handle', 'aria-hidden': 'true' });
  const frame = h('div', { class: 'compare-frame' }, afterImage, beforeImage, handle);
  const follow = (event: PointerEvent) => {
    const box = frame.getBoundingClientRect();
    range.value = String(Math.round(((event.clientX - box.left) / box.width) * 100));
    show();
  };
  frame.addEventListener('pointerdown', (event) => {
    frame.setPointerCapture(event.pointerId);
    follow(event);
  });
  frame.addEventListener('pointermove', (event) => {
    if (frame.hasPointerCapture(event.pointerId)) follow(event);
  });
  range.addEventListener('input', show);
  show();
  return h(
    'figure',
    { class: 'compare' },
    frame,
    h('div', { class: 'field compare-control' }, h('label', { for: id }, 'Before / after'), range),
    h('figcaption', { class: 'compare-legend' }, h('span', {}, '◀ Before'), h('span', {}, 'After ▶')),
  );
}
