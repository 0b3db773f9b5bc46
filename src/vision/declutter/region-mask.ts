/** A binary mask over a rectangle of an image: `data[(y − top)·width + (x − left)]` for image pixel (x, y). */
export interface RegionMask {
  x: number;
  y: number;
  width: number;
  height: number;
  data: Uint8Array;
}

/** Sets to 1 every pixel of the full-image `target` (row length `imageWidth`) that `region` marks. */
export function paintRegionMask(target: Uint8Array, imageWidth: number, region: RegionMask): void {
  for (let y = 0; y < region.height; y++) {
    const source = y * region.width;
    const dest = (region.y + y) * imageWidth + region.x;
    for (let x = 0; x < region.width; x++) if (region.data[source + x]) target[dest + x] = 1;
  }
}
