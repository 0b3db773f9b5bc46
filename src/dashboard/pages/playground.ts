import { describeError, v1, type Job } from '../api.js';
import { field, h, replace, statusLine, uid } from '../dom.js';
import { compareSlider } from '../components/compare-slider.js';
import { maskEditor, type MaskEditor } from '../components/mask-editor.js';
import { keepInput } from '../components/input-store.js';
import { OPERATION_FORMS, type Lookups, type OperationFields } from './operations.js';
import type { View } from '../main.js';

/** How often a running job is asked for its progress. */
const POLL_MS = 1000;

/**
 * The playground: a photo (a file, or a URL), an operation and its fields, a mask for furnish and declutter; it
 * submits with `Prefer: respond-async` as the logged-in user, follows the job's progress and shows before and after.
 */
export async function playgroundPage(view: View): Promise<void> {
  const [styles, rooms, furnitures, skies] = await Promise.all([v1.styles(), v1.rooms(), v1.furnitures(), v1.skies()]);
  const lookups: Lookups = { styles, rooms, furnitures, skies };

  // The photo: a file from this device, or a URL the service fetches.
  const sourceName = uid('source');
  const byFile = h('input', { type: 'radio', name: sourceName, id: `${sourceName}-file`, value: 'file', checked: true });
  const byUrl = h('input', { type: 'radio', name: sourceName, id: `${sourceName}-url`, value: 'url' });
  const file = h('input', { type: 'file', name: 'file', accept: 'image/jpeg,image/png,image/webp,image/avif,image/tiff,image/gif' });
  const url = h('input', { type: 'url', name: 'url', placeholder: 'https://example.com/room.jpg', inputmode: 'url' });
  const fileField = field('Photo file', file, 'JPEG, PNG, WebP, AVIF, TIFF or GIF, up to 25 MiB.');
  const urlField = field('Photo URL', url, 'The service fetches it; to draw a mask, upload the photo as a file.');
  const photo = h('img', { alt: 'The photo you chose', class: 'photo-preview' });
  const photoBox = h('div', { class: 'photo-box', hidden: true }, photo);

  const operation = h('select', { name: 'operation' }, OPERATION_FORMS.map((o) => h('option', { value: o.name }, o.label)));
  const fieldsBox = h('div', { class: 'operation-fields' });
  const maskBox = h('div', {});
  const error = statusLine('alert');
  const run = h('button', { type: 'submit' }, 'Run');
  const result = h('section', { class: 'card result', 'aria-labelledby': 'playground-result', hidden: true });

  let fields: OperationFields = { elements: [], values: () => ({}) };
  let mask: MaskEditor | undefined;
  let chosen: { file: File; dataUrl: string; objectUrl: string } | undefined;

  const formOf = () => OPERATION_FORMS.find((o) => o.name === operation.value)!;
  function showOperation(): void {
    fields = formOf().fields(lookups);
    replace(fieldsBox, fields.elements);
    showMask();
  }
  function showMask(): void {
    mask = undefined;
    replace(maskBox);
    if (!formOf().mask) return;
    if (!chosen || !byFile.checked) {
      replace(maskBox, h('p', { class: 'hint' }, 'Upload the photo as a file to draw a mask on it; without one the operation chooses the area itself.'));
      return;
    }
    if (!photo.complete || photo.naturalWidth === 0) return; // drawn once the photo has loaded
    mask = maskEditor(photo);
    replace(maskBox, mask.element);
  }
  function showSource(): void {
    fileField.hidden = !byFile.checked;
    urlField.hidden = byFile.checked;
    photoBox.hidden = !byFile.checked || !chosen;
    showMask();
  }

  file.addEventListener('change', async () => {
    const picked = file.files?.[0];
    if (chosen) URL.revokeObjectURL(chosen.objectUrl);
    chosen = undefined;
    if (picked) {
      const dataUrl = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as string);
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(picked);
      });
      chosen = { file: picked, dataUrl, objectUrl: URL.createObjectURL(picked) };
      photo.src = chosen.objectUrl;
    }
    showSource();
  });
  photo.addEventListener('load', showMask);
  byFile.addEventListener('change', showSource);
  byUrl.addEventListener('change', showSource);
  operation.addEventListener('change', showOperation);

  const form = h(
    'form',
    { class: 'card playground-form' },
    h(
      'fieldset',
      { class: 'choice' },
      h('legend', {}, 'Photo'),
      h('div', { class: 'check' }, byFile, h('label', { for: byFile.id }, 'Upload a file')),
      h('div', { class: 'check' }, byUrl, h('label', { for: byUrl.id }, 'Give a URL')),
    ),
    fileField,
    urlField,
    photoBox,
    field('Operation', operation),
    fieldsBox,
    maskBox,
    error,
    run,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const input = byFile.checked ? chosen?.dataUrl : url.value.trim();
    if (!input) {
      error.textContent = byFile.checked ? 'Choose a photo file first.' : 'Give the photo’s URL first.';
      (byFile.checked ? file : url).focus();
      return;
    }
    const maskUrl = mask?.value();
    const before = byFile.checked ? chosen?.objectUrl : undefined;
    const sent = byFile.checked ? chosen?.file : undefined;
    run.disabled = true;
    try {
      const acknowledgement = await v1.submit(operation.value, { url: input, ...(maskUrl ? { mask: maskUrl } : {}), ...fields.values() });
      if (sent) void keepInput(acknowledgement.id, sent);
      await follow(acknowledgement.id, before);
    } catch (failure) {
      if (!view.signal.aborted) error.textContent = describeError(failure);
    } finally {
      run.disabled = false;
    }
  });

  /** Polls the job until it settles, showing its progress, then the result. */
  async function follow(id: string, before: string | undefined): Promise<void> {
    const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Progress' });
    const state = statusLine();
    result.hidden = false;
    replace(
      result,
      h('h2', { id: 'playground-result' }, 'Result'),
      h('p', {}, 'Job ', h('a', { href: `/dashboard/jobs/${encodeURIComponent(id)}` }, h('code', {}, id))),
      progress,
      state,
    );
    let job: Job;
    for (;;) {
      job = await v1.job(id, view.signal);
      progress.value = job.progress;
      if (job.status !== 'pending') break;
      const left = job.estimatedSecondsLeft === undefined ? '' : `, about ${job.estimatedSecondsLeft} s left`;
      state.textContent = job.progress > 0 ? `Running: ${Math.round(job.progress * 100)}%${left}` : 'Waiting for a worker…';
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (view.signal.aborted) return;
    }
    progress.remove();
    if (job.status === 'failed') {
      state.textContent = '';
      result.append(h('p', { role: 'alert', class: 'message error' }, `The job failed (${job.error?.code}): ${job.error?.message}`));
      return;
    }
    state.textContent = `Done: ${job.credits ?? 0} credit${job.credits === 1 ? '' : 's'}.`;
    result.append(compareSlider(before, job.output!, 'the photo'), h('p', {}, h('a', { href: job.output!, download: '' }, 'Download the result')));
  }

  showOperation();
  showSource();
  view.main.append(
    view.heading('Playground'),
    h('p', { class: 'hint' }, 'Try any operation as yourself, with a test key’s rules: no credits spent, a TEST watermark on results.'),
    h('div', { class: 'playground' }, form, result),
  );
}
