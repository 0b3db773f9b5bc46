import { field, h } from '../dom.js';

export interface MaskEditor {
  element: HTMLElement;
  /** The mask as a PNG data URL of the image's exact size (white: the area, black: the rest), or undefined if empty. */
  value(): string | undefined;
}

/**
 * A brush over the photo. Two canvases of the image's own pixel size: the visible one shows the strokes over the
 * photo; the mask one gets the same strokes in white on black and is what is sent. A pointer (mouse, finger, pen)
 * paints; the keyboard adds rectangles by their edges in percent of the image instead.
 */
export function maskEditor(image: HTMLImageElement): MaskEditor {
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  const overlay = h('canvas', { width, height, class: 'mask-overlay', 'aria-hidden': 'true' });
  const mask = h('canvas', { width, height });
  const overlayContext = overlay.getContext('2d')!;
  const maskContext = mask.getContext('2d')!;
  const contexts = [overlayContext, maskContext];
  let painted = false;
  const clear = () => {
    overlayContext.clearRect(0, 0, width, height);
    maskContext.fillStyle = '#000';
    maskContext.fillRect(0, 0, width, height);
    maskContext.fillStyle = '#fff';
    painted = false;
    refreshPreview();
  };
  overlayContext.strokeStyle = overlayContext.fillStyle = '#e0007a';
  maskContext.strokeStyle = '#fff';

  const brush = h('input', { type: 'range', min: 1, max: 20, value: 6 });
  const brushWidth = () => (Math.max(width, height) * Number(brush.value)) / 100;
  const preview = h('img', { class: 'mask-preview', alt: 'Mask preview: white is the area the operation works on' });
  const coverage = h('p', { class: 'hint', role: 'status' });

  function refreshPreview(): void {
    const pixels = maskContext.getImageData(0, 0, width, height).data;
    let white = 0;
    for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! > 127) white += 1;
    const share = white / (width * height);
    preview.src = mask.toDataURL('image/png');
    preview.dataset.coverage = share.toFixed(4);
    coverage.textContent = painted ? `The mask covers ${(share * 100).toFixed(1)}% of the photo.` : 'No mask: the whole photo is considered.';
  }

  // Pointer strokes, in the image's pixels whatever the canvas is displayed at.
  let last: { x: number; y: number } | undefined;
  const at = (event: PointerEvent) => {
    const box = overlay.getBoundingClientRect();
    return { x: ((event.clientX - box.left) / box.width) * width, y: ((event.clientY - box.top) / box.height) * height };
  };
  const stroke = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    for (const context of contexts) {
      context.lineWidth = brushWidth();
      context.lineCap = context.lineJoin = 'round';
      context.beginPath();
      context.moveTo(from.x, from.y);
      context.lineTo(to.x, to.y);
      context.stroke();
    }
    painted = true;
  };
  overlay.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    overlay.setPointerCapture(event.pointerId);
    last = at(event);
    stroke(last, last);
  });
  overlay.addEventListener('pointermove', (event) => {
    if (!last) return;
    const point = at(event);
    stroke(last, point);
    last = point;
  });
  const end = () => {
    if (!last) return;
    last = undefined;
    refreshPreview();
  };
  overlay.addEventListener('pointerup', end);
  overlay.addEventListener('pointercancel', end);

  // The keyboard's way: a rectangle by its edges.
  const percent = (value: number) => h('input', { type: 'number', min: 0, max: 100, step: 1, value, inputmode: 'numeric' });
  const left = percent(25);
  const top = percent(25);
  const right = percent(75);
  const bottom = percent(75);
  const addRectangle = () => {
    const [x0, x1] = [Number(left.value), Number(right.value)].sort((a, b) => a - b) as [number, number];
    const [y0, y1] = [Number(top.value), Number(bottom.value)].sort((a, b) => a - b) as [number, number];
    for (const context of contexts) context.fillRect((x0 / 100) * width, (y0 / 100) * height, ((x1 - x0) / 100) * width, ((y1 - y0) / 100) * height);
    painted = true;
    refreshPreview();
  };
  clear();

  const photo = h('img', { src: image.src, alt: '', class: 'mask-photo' });
  const element = h(
    'fieldset',
    { class: 'mask-editor' },
    h('legend', {}, 'Mask (optional): paint the area to work on'),
    h('div', { class: 'mask-stage' }, photo, overlay),
    h(
      'div',
      { class: 'row' },
      field('Brush size', brush, 'In percent of the photo’s longer side.'),
      h('button', { type: 'button', class: 'secondary', onclick: clear }, 'Clear the mask'),
    ),
    h(
      'details',
      { class: 'mask-keyboard' },
      h('summary', {}, 'Add a rectangle instead (keyboard)'),
      h('div', { class: 'grid-4' }, field('Left %', left), field('Top %', top), field('Right %', right), field('Bottom %', bottom)),
      h('button', { type: 'button', class: 'secondary', onclick: addRectangle }, 'Add the rectangle to the mask'),
    ),
    h('div', { class: 'mask-preview-box' }, h('p', { class: 'label' }, 'Mask preview'), preview, coverage),
  );
  return { element, value: () => (painted ? mask.toDataURL('image/png') : undefined) };
}
