import { decodeSegmentation, networkInput, VISIBLE_CLASSES, type RoomSegmentation } from '../../vision/geometry/room-segmentation.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { TensorModel } from './line-sources.js';

/** Our room-understanding network (tools/room-understanding, docs/models/room-understanding.md). */
export const ROOM_NETWORK_MODEL = 'room-understanding';
/**
 * The same network trained further on a GPU, whose layout is far better on real photos but whose furniture is not
 * (it calls dark wood floors and beige walls furniture): its layout and boundaries replace the first's, and its
 * windows and doors join the first's; the rest of what is seen stays the first's (docs/decisions/0020-layout-network.md).
 */
export const ROOM_LAYOUT_MODEL = 'room-layout';
/** The longer side the network sees: its cost grows with the square, and the layout needs no more. */
export const ROOM_NETWORK_SIZE = 384;

/** What the analysis needs of the network: a photo in, its maps out. */
export type SegmentationSource = (image: RawImage) => Promise<RoomSegmentation>;

export function roomNetworkSource(model: TensorModel, longSide = ROOM_NETWORK_SIZE): SegmentationSource {
  return async (image) => {
    const { input, width, height } = networkInput(image, longSide);
    const out = await model.run(input, [1, 3, height, width]);
    const visible = out['visible'];
    const layout = out['layout'];
    const edges = out['edges'];
    if (!visible || !layout || !edges) throw new Error(`${ROOM_NETWORK_MODEL}: the model lacks its visible, layout or edges output`);
    return decodeSegmentation(visible.data, layout.data, edges.data, width, height);
  };
}

/**
 * The room's layout and its boundaries from one network, what each pixel shows from another, with the windows and
 * doors of both: the layout network finds passages and doors the other misses (empty_studio_white_03's passage,
 * empty_living_07's door), the other windows it misses, and an opening found is furniture kept off it. Both see the
 * photo at the same size, so their maps lie on one grid.
 */
export function layoutFromOtherSource(seen: SegmentationSource, layout: SegmentationSource): SegmentationSource {
  return async (image) => {
    const [visible, room] = await Promise.all([seen(image), layout(image)]);
    if (visible.width !== room.width || visible.height !== room.height) {
      throw new Error(`the layout network answered at ${room.width}×${room.height}, the other at ${visible.width}×${visible.height}`);
    }
    const classes = visible.visible.slice();
    for (let i = 0; i < classes.length; i++) {
      if (!OPENING_CLASSES.has(classes[i]!) && OPENING_CLASSES.has(room.visible[i]!)) classes[i] = room.visible[i]!;
    }
    return { ...visible, visible: classes, layout: room.layout, layoutConfidence: room.layoutConfidence, edges: room.edges };
  };
}

const OPENING_CLASSES = new Set((['window', 'door'] as const).map((c) => VISIBLE_CLASSES.indexOf(c)));
