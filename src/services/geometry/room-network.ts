import { decodeSegmentation, networkInput, type RoomSegmentation } from '../../vision/geometry/room-segmentation.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { TensorModel } from './line-sources.js';

/** Our room-understanding network (tools/room-understanding, docs/models/room-understanding.md). */
export const ROOM_NETWORK_MODEL = 'room-understanding';
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
