import { decodeSegmentation, networkInput, withLayoutOf, type RoomSegmentation } from '../../vision/geometry/room-segmentation.js';
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
    return segment(model, input, width, height);
  };
}

/**
 * The two networks as the operations run them, on one reduction of the photo (the reduction of a 12 MP photo costs
 * more than a network's run): the layout, its confidence and the boundaries of `layout`, what each pixel shows of
 * `seen`, with the windows and doors of both (withLayoutOf).
 */
export function pairedNetworkSource(seen: TensorModel, layout: TensorModel, longSide = ROOM_NETWORK_SIZE): SegmentationSource {
  return async (image) => {
    const { input, width, height } = networkInput(image, longSide);
    const [seenMaps, layoutMaps] = await Promise.all([segment(seen, input, width, height), segment(layout, input, width, height)]);
    return withLayoutOf(seenMaps, layoutMaps);
  };
}

/** One network's maps of the reduced photo; both files have the same outputs. */
async function segment(model: TensorModel, input: Float32Array, width: number, height: number): Promise<RoomSegmentation> {
  const out = await model.run(input, [1, 3, height, width]);
  const visible = out['visible'];
  const layout = out['layout'];
  const edges = out['edges'];
  if (!visible || !layout || !edges) throw new Error(`a room network (${ROOM_NETWORK_MODEL} or ${ROOM_LAYOUT_MODEL}) lacks its visible, layout or edges output`);
  return decodeSegmentation(visible.data, layout.data, edges.data, width, height);
}
