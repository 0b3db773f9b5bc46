/**
 * What a staged room holds, per room id of /v1/rooms: furniture groups, each an anchor piece and members placed
 * relative to it (ProcTHOR's asset groups), in the order they are placed (large first, decor last). Distances are
 * the design anchors' (../shared/research/staging-anchors.md; docs/decisions/0012-layout-planner.md).
 */

/** Where a member stands relative to its group's anchor (the anchor's front faces into the room). */
export type Relation =
  /** Centred before the anchor's front, `gap` metres between the two; turned to face the anchor or as the anchor. */
  | { kind: 'front'; gap: number; facing: 'anchor' | 'same' }
  /** Beside the anchor, backs on one line, `gap` metres from its side (nightstands, a side table). */
  | { kind: 'beside'; side: 'left' | 'right'; gap: number }
  /** Beside the group's `front` member, turned to face it (an armchair by the coffee table). */
  | { kind: 'flank'; side: 'left' | 'right'; gap: number }
  /** Chairs around a table: along both long sides every 0.6 m, and at the ends of a table 1.6 m long or more. */
  | { kind: 'around' }
  /** Under the group: a rug centred on the anchor and its front member. */
  | { kind: 'under' }
  /** Hung on the wall behind the anchor, centred over it, its foot clear of the anchor's top (art over a sofa). */
  | { kind: 'above' };

export interface ProgrammeMember {
  furnitureId: string;
  relation: Relation;
  /**
   * At most this share of the anchor's width: art over a sofa or a bed, and a coffee table before its seat, are about
   * two thirds of it (the designers' rule; ../shared/research/staging-anchors.md). A piece that comes in no size that
   * small takes its smallest.
   */
  widthShare?: number;
  /** Left out, and counted as such, when it does not fit; otherwise the whole group moves until it does. */
  optional?: boolean;
  /** Decor (art): placed with the group by smart-staging-v2 and furnish, not by the legacy smart-staging. */
  decor?: boolean;
}

export interface ProgrammeGroup {
  name: string;
  anchor: string;
  /**
   * Smaller pieces tried in turn when the anchor fits nowhere (a two-seater for a three-seater, then an armchair: a
   * room whose walls leave no sofa a place, with its windows and doors kept clear, is staged as a reading corner
   * rather than refused).
   */
  alternatives?: string[];
  /** `wall`: the anchor's back against a wall; `free`: anywhere on the floor; `corner`: against a wall, near a corner. */
  place: 'wall' | 'free' | 'corner';
  members: ProgrammeMember[];
  optional?: boolean;
  /** Decor (lamps, plants, rugs alone): smart-staging-v2 and furnish place it; the legacy smart-staging does not. */
  decor?: boolean;
  /** The anchor is a bed: the floor beside it is kept clear (the planner's bed-side rule). */
  bedSides?: boolean;
}

export interface RoomProgramme {
  roomId: string;
  groups: ProgrammeGroup[];
}

/** Coffee table 0.35–0.6 m from the sofa (the anchors' conversation distance), 0.45 m here. */
const COFFEE_TABLE_GAP_M = 0.45;
/** A desk chair's seat half under the desk's front. */
const DESK_CHAIR_GAP_M = -0.2;

/** Art over a piece, and a coffee table before its seat: two thirds of the piece's width. */
const TWO_THIRDS = 2 / 3;

/** A painting over the sofa or the bed. */
const art: ProgrammeMember = { furnitureId: 'wall_art', relation: { kind: 'above' }, widthShare: TWO_THIRDS, optional: true, decor: true };

const seating = (sofa: string, options: { armchair?: boolean; sideTable?: boolean; rug?: boolean } = {}): ProgrammeGroup => ({
  name: 'seating',
  anchor: sofa,
  alternatives: sofa === 'sofa_3_seater' ? ['sofa_2_seater', 'armchair'] : sofa === 'sofa_2_seater' ? ['armchair'] : [],
  place: 'wall',
  members: [
    { furnitureId: 'coffee_table', relation: { kind: 'front', gap: COFFEE_TABLE_GAP_M, facing: 'same' }, widthShare: TWO_THIRDS },
    ...(options.rug === false ? [] : [{ furnitureId: 'rug', relation: { kind: 'under' } as const, optional: true }]),
    ...(options.armchair === false ? [] : [{ furnitureId: 'armchair', relation: { kind: 'flank', side: 'right', gap: 0.35 } as const, optional: true }]),
    ...(options.sideTable === false ? [] : [{ furnitureId: 'side_table', relation: { kind: 'beside', side: 'left', gap: 0.05 } as const, optional: true }]),
    art,
  ],
});

const bed = (id: string, nightstands: 0 | 1 | 2, rug = true): ProgrammeGroup => ({
  name: 'bed',
  anchor: id,
  alternatives: id === 'double_bed' ? ['single_bed'] : [],
  place: 'wall',
  bedSides: true,
  members: [
    ...(nightstands >= 1 ? [{ furnitureId: 'nightstand', relation: { kind: 'beside', side: 'left', gap: 0.05 } as const, optional: true }] : []),
    ...(nightstands >= 2 ? [{ furnitureId: 'nightstand', relation: { kind: 'beside', side: 'right', gap: 0.05 } as const, optional: true }] : []),
    ...(rug ? [{ furnitureId: 'rug', relation: { kind: 'under' } as const, optional: true }] : []),
    art,
  ],
});

const table = (id: string, chair: string, rug = false): ProgrammeGroup => ({
  name: 'table',
  anchor: id,
  alternatives: id === 'dining_table' ? ['kitchen_table'] : [],
  place: 'free',
  members: [
    { furnitureId: chair, relation: { kind: 'around' } },
    ...(rug ? [{ furnitureId: 'rug', relation: { kind: 'under' } as const, optional: true }] : []),
  ],
});

const desk = (chair: string): ProgrammeGroup => ({
  name: 'desk',
  anchor: 'desk',
  place: 'wall',
  members: [{ furnitureId: chair, relation: { kind: 'front', gap: DESK_CHAIR_GAP_M, facing: 'anchor' } }],
});

const alone = (name: string, id: string, place: ProgrammeGroup['place'], extra: Partial<ProgrammeGroup> = {}): ProgrammeGroup => ({
  name,
  anchor: id,
  place,
  members: [],
  optional: true,
  ...extra,
});

const plant = (id = 'houseplant') => alone('plant', id, 'corner', { decor: true });
const lamp = () => alone('lamp', 'floor_lamp', 'corner', { decor: true });

export const ROOM_PROGRAMMES: readonly RoomProgramme[] = [
  { roomId: 'living_room', groups: [seating('sofa_3_seater'), alone('storage', 'sideboard', 'wall', { alternatives: ['console_table'] }), lamp(), plant()] },
  { roomId: 'living_dining', groups: [seating('sofa_3_seater', { sideTable: false }), { ...table('dining_table', 'dining_chair'), optional: true }, plant()] },
  { roomId: 'kitchen_living', groups: [seating('sofa_2_seater', { armchair: false }), { ...table('kitchen_table', 'kitchen_chair'), optional: true }, plant()] },
  { roomId: 'veranda', groups: [seating('outdoor_sofa', { armchair: false, sideTable: false }), alone('chair', 'hanging_chair', 'free'), plant('planter')] },
  { roomId: 'bedroom', groups: [bed('double_bed', 2), alone('storage', 'chest_of_drawers', 'wall'), lamp(), plant()] },
  { roomId: 'master_bedroom', groups: [bed('double_bed', 2), alone('storage', 'wardrobe', 'wall', { alternatives: ['chest_of_drawers'] }), alone('chair', 'armchair', 'corner'), plant()] },
  { roomId: 'kids_room', groups: [bed('single_bed', 1), { ...desk('office_chair'), optional: true }, alone('storage', 'bookcase', 'wall'), alone('rug', 'rug', 'free', { decor: true })] },
  { roomId: 'guest_room', groups: [bed('double_bed', 1, false), alone('storage', 'chest_of_drawers', 'wall'), plant()] },
  { roomId: 'dining_room', groups: [table('dining_table', 'dining_chair', true), alone('storage', 'sideboard', 'wall', { alternatives: ['console_table'] }), plant()] },
  { roomId: 'kitchen', groups: [table('kitchen_table', 'kitchen_chair'), alone('cart', 'kitchen_cart', 'wall'), plant()] },
  { roomId: 'home_office', groups: [desk('office_chair'), alone('storage', 'bookcase', 'wall'), alone('chair', 'armchair', 'corner'), lamp(), plant()] },
  { roomId: 'gaming_room', groups: [desk('gaming_chair'), seating('sofa_2_seater', { armchair: false, sideTable: false }), alone('storage', 'bookcase', 'wall')] },
  { roomId: 'home_gym', groups: [alone('mat', 'rug', 'free'), alone('mirror', 'floor_mirror', 'wall'), plant()] },
  {
    roomId: 'library',
    groups: [
      alone('books', 'bookcase', 'wall', { optional: false }),
      alone('more-books', 'bookcase', 'wall'),
      { name: 'reading', anchor: 'armchair', place: 'corner', members: [{ furnitureId: 'side_table', relation: { kind: 'beside', side: 'right', gap: 0.1 }, optional: true }] },
      lamp(),
    ],
  },
  { roomId: 'entrance_hall', groups: [alone('console', 'console_table', 'wall', { optional: false }), alone('shoes', 'shoe_cabinet', 'wall'), alone('mirror', 'floor_mirror', 'wall'), plant()] },
  { roomId: 'hallway', groups: [alone('console', 'console_table', 'wall', { optional: false }), alone('rug', 'rug', 'free', { decor: true }), plant()] },
  { roomId: 'laundry_room', groups: [alone('cabinet', 'tall_bathroom_cabinet', 'wall', { optional: false }), alone('basket', 'laundry_basket', 'corner'), plant()] },
  { roomId: 'walk_in_closet', groups: [alone('wardrobe', 'wardrobe', 'wall', { optional: false }), alone('second-wardrobe', 'wardrobe', 'wall'), alone('drawers', 'chest_of_drawers', 'wall'), alone('mirror', 'floor_mirror', 'wall')] },
  { roomId: 'bathroom', groups: [alone('vanity', 'vanity_unit', 'wall', { optional: false }), alone('radiator', 'towel_radiator', 'wall'), alone('basket', 'laundry_basket', 'corner'), alone('mat', 'bath_mat', 'free', { decor: true })] },
  { roomId: 'shower_room', groups: [alone('vanity', 'vanity_unit', 'wall', { optional: false }), alone('radiator', 'towel_radiator', 'wall'), alone('mat', 'bath_mat', 'free', { decor: true })] },
  { roomId: 'outdoor_terrace', groups: [table('garden_table', 'garden_chair'), alone('lounger', 'sun_lounger', 'free'), plant('planter')] },
  { roomId: 'balcony', groups: [table('garden_table', 'garden_chair'), plant('planter')] },
  { roomId: 'garden', groups: [table('garden_table', 'garden_chair'), alone('shade', 'parasol', 'free'), alone('lounger', 'sun_lounger', 'free'), alone('grill', 'barbecue', 'wall'), plant('planter')] },
];

export function roomProgramme(roomId: string): RoomProgramme | undefined {
  return ROOM_PROGRAMMES.find((p) => p.roomId === roomId);
}
