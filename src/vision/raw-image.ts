/**
 * Interleaved pixels as sharp's raw output gives them: 8-bit samples, row-major, `channels` per pixel
 * (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA). Vision code works on this and nothing else.
 */
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export function hasAlpha(image: RawImage): boolean {
  return image.channels === 2 || image.channels === 4;
}
