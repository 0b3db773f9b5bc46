import type { Furniture, Room, Sky, Style } from '../api.js';
import { field, h, uid } from '../dom.js';

export interface Lookups {
  styles: Style[];
  rooms: Room[];
  furnitures: Record<string, Furniture[]>;
  skies: Sky[];
}

/** An operation's own fields in the playground: their controls, and the request fields they make. */
export interface OperationFields {
  elements: Node[];
  values(): Record<string, unknown>;
}

export interface OperationForm {
  name: string;
  label: string;
  /** Whether a mask can be drawn (furnish and declutter). */
  mask: boolean;
  fields(lookups: Lookups): OperationFields;
}

const SMART_STAGING_V2_ROOMS = ['living_room', 'living_dining', 'kitchen_living', 'bedroom', 'dining_room', 'home_office', 'outdoor_terrace', 'kitchen'];
const SMART_STAGING_V1_ROOMS = ['living_room', 'bedroom', 'dining_room', 'home_office', 'gaming_room'];

const select = (name: string, options: { value: string; label: string }[], extra: Record<string, string> = {}) =>
  h('select', { name, ...extra }, options.map((o) => h('option', { value: o.value }, o.label)));
const styles = (lookups: Lookups) => select('styleId', lookups.styles.map((s) => ({ value: s.id, label: s.name })));
const rooms = (lookups: Lookups, only?: string[]) =>
  select(
    'roomId',
    lookups.rooms.filter((r) => !only || only.includes(r.id)).map((r) => ({ value: r.id, label: r['name-en'] })),
  );
const skies = (lookups: Lookups, none: string) =>
  select('skyId', [{ value: '', label: none }, ...lookups.skies.map((s) => ({ value: s.id, label: s.name }))]);
const checkbox = (name: string, label: string) => {
  const input = h('input', { type: 'checkbox', name, id: uid(name) });
  return { input, element: h('div', { class: 'check' }, input, h('label', { for: input.id }, label)) };
};

function scale(values: number[]): OperationForm['fields'] {
  return () => {
    const control = select('scale', values.map((v) => ({ value: String(v), label: `×${v}` })));
    return { elements: [field('Scale', control)], values: () => ({ scale: Number(control.value) }) };
  };
}

function stagingRooms(only: string[]): OperationForm['fields'] {
  return (lookups) => {
    const room = rooms(lookups, only);
    const style = styles(lookups);
    return { elements: [field('Room', room), field('Style', style)], values: () => ({ roomId: room.value, styleId: style.value }) };
  };
}

export const OPERATION_FORMS: OperationForm[] = [
  { name: 'upscale', label: 'Upscale', mask: false, fields: scale([2, 3]) },
  { name: 'upscale_advanced', label: 'Upscale (advanced)', mask: false, fields: scale([2, 4, 6]) },
  {
    name: 'enhancer',
    label: 'Enhance',
    mask: false,
    fields: (lookups) => {
      const skyFix = checkbox('sky_fix', 'Replace a grey sky');
      const sky = skies(lookups, 'The default sky');
      const privacy = checkbox('auto_privacy', 'Blur faces and licence plates');
      const retouch = select('retouch', [
        { value: '', label: 'The service’s choice' },
        { value: 'classical', label: 'Classical' },
        { value: 'learned', label: 'Learned' },
      ]);
      return {
        elements: [skyFix.element, field('Sky', sky, 'Choosing one turns the sky replacement on.'), privacy.element, field('Retouching', retouch)],
        values: () => ({
          ...(skyFix.input.checked ? { sky_fix: true } : {}),
          ...(sky.value ? { skyId: sky.value } : {}),
          ...(privacy.input.checked ? { auto_privacy: true } : {}),
          ...(retouch.value ? { retouch: retouch.value } : {}),
        }),
      };
    },
  },
  {
    name: 'sunshine',
    label: 'Sunshine (new sky)',
    mask: false,
    fields: (lookups) => {
      const sky = skies(lookups, 'The first sky of the list');
      return { elements: [field('Sky', sky)], values: () => (sky.value ? { skyId: sky.value } : {}) };
    },
  },
  { name: 'declutter', label: 'Declutter', mask: true, fields: () => ({ elements: [], values: () => ({}) }) },
  {
    name: 'furnish',
    label: 'Furnish',
    mask: true,
    fields: (lookups) => {
      const style = styles(lookups);
      const room = rooms(lookups);
      const piece = h(
        'select',
        { name: 'furnitureId' },
        Object.entries(lookups.furnitures).map(([group, items]) =>
          h('optgroup', { label: group }, items.map((item) => h('option', { value: item.id }, item.name_en))),
        ),
      );
      const name = uid('furnish-with');
      const byRoom = h('input', { type: 'radio', name, value: 'room', id: `${name}-room`, checked: true });
      const byPiece = h('input', { type: 'radio', name, value: 'piece', id: `${name}-piece` });
      const roomField = field('Room', room);
      const pieceField = field('Furniture', piece);
      const sync = () => {
        roomField.hidden = !byRoom.checked;
        pieceField.hidden = byRoom.checked;
      };
      byRoom.addEventListener('change', sync);
      byPiece.addEventListener('change', sync);
      sync();
      const windows = checkbox('preserveWindows', 'Leave windows and doors untouched (ignored with a mask)');
      return {
        elements: [
          field('Style', style),
          h(
            'fieldset',
            { class: 'choice' },
            h('legend', {}, 'Furnish with'),
            h('div', { class: 'check' }, byRoom, h('label', { for: byRoom.id }, 'A whole room')),
            h('div', { class: 'check' }, byPiece, h('label', { for: byPiece.id }, 'One piece of furniture')),
          ),
          roomField,
          pieceField,
          windows.element,
        ],
        values: () => ({
          styleId: style.value,
          ...(byRoom.checked ? { roomId: room.value } : { furnitureId: piece.value }),
          ...(windows.input.checked ? { preserveWindows: true } : {}),
        }),
      };
    },
  },
  { name: 'smart-staging-v2', label: 'Smart staging', mask: false, fields: stagingRooms(SMART_STAGING_V2_ROOMS) },
  { name: 'smart-staging', label: 'Smart staging (legacy)', mask: false, fields: stagingRooms(SMART_STAGING_V1_ROOMS) },
  {
    name: 'creative-redesign',
    label: 'Creative redesign',
    mask: false,
    fields: (lookups) => {
      const style = styles(lookups);
      const room = rooms(lookups);
      return { elements: [field('Style', style), field('Room', room)], values: () => ({ styleId: style.value, roomId: room.value }) };
    },
  },
];
