/**
 * Values per pixel in Level.colour: red, green, blue (0–255), then the texture features, the local means of |∂x| and
 * |∂y| of the luma at the finest level (Newson et al. 2014), scaled by their weight. Averaged down the pyramid, the
 * features let coarse levels tell a fine mosaic or brick from a smooth surface of the same mean colour, so the fill
 * does not settle on the smooth one.
 */
export const CHANNELS = 5;

/**
 * One level of the inpainting pyramid: the picture at that resolution and what is known about each pixel. Hole
 * pixels hold the current estimate of the fill.
 */
export interface Level {
  width: number;
  height: number;
  /** Interleaved, CHANNELS values per pixel. */
  colour: Float32Array;
  /** 1 where the pixel is to be filled. */
  hole: Uint8Array;
  /** 1 where nothing may be copied from (other objects, windows when the hole is on a wall, ...). */
  excluded: Uint8Array;
  /** Surface index of each pixel (see Surface). */
  group: Uint8Array;
  /** Photo pixels per level pixel. */
  scale: number;
}

/** Halves a level: colours averaged over 2×2, a pixel is hole (or excluded) when any of its four is. */
export function downsampleLevel(level: Level): Level {
  const width = Math.max(1, Math.ceil(level.width / 2));
  const height = Math.max(1, Math.ceil(level.height / 2));
  const colour = new Float32Array(width * height * CHANNELS);
  const hole = new Uint8Array(width * height);
  const excluded = new Uint8Array(width * height);
  const group = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * width + x;
      for (let dy = 0; dy < 2; dy++) {
        const sy = Math.min(level.height - 1, 2 * y + dy);
        for (let dx = 0; dx < 2; dx++) {
          const sx = Math.min(level.width - 1, 2 * x + dx);
          const i = sy * level.width + sx;
          for (let c = 0; c < CHANNELS; c++) colour[CHANNELS * o + c]! += level.colour[CHANNELS * i + c]! / 4;
          if (level.hole[i]) hole[o] = 1;
          if (level.excluded[i]) excluded[o] = 1;
        }
      }
      // The finer level's lower-right pixel of the four: the one nearest the coarse pixel's centre on a 2:1 grid.
      group[o] = level.group[Math.min(level.height - 1, 2 * y + 1) * level.width + Math.min(level.width - 1, 2 * x + 1)]!;
    }
  }
  return { width, height, colour, hole, excluded, group, scale: level.scale * 2 };
}

/**
 * Seeds the hole of the coarsest level with something smooth to start from: pixels are filled from the rim inwards,
 * each with the mean of its already-known 8 neighbours.
 */
export function fillFromRim(level: Level): void {
  const { width, height, colour, hole } = level;
  const known = new Uint8Array(width * height);
  for (let i = 0; i < known.length; i++) known[i] = hole[i] ? 0 : 1;
  let front: number[] = [];
  for (let i = 0; i < known.length; i++) if (!known[i] && touchesKnown(i, known, width, height)) front.push(i);
  while (front.length > 0) {
    const values = front.map((i) => neighbourMean(i, known, colour, width, height));
    front.forEach((i, k) => {
      colour.set(values[k]!, CHANNELS * i);
      known[i] = 1;
    });
    const next = new Set<number>();
    for (const i of front) {
      forNeighbours(i, width, height, (j) => {
        if (!known[j]) next.add(j);
      });
    }
    front = [...next];
  }
}

function touchesKnown(i: number, known: Uint8Array, width: number, height: number): boolean {
  let found = false;
  forNeighbours(i, width, height, (j) => {
    if (known[j]) found = true;
  });
  return found;
}

function neighbourMean(i: number, known: Uint8Array, colour: Float32Array, width: number, height: number): Float32Array {
  const mean = new Float32Array(CHANNELS);
  let n = 0;
  forNeighbours(i, width, height, (j) => {
    if (!known[j]) return;
    for (let c = 0; c < CHANNELS; c++) mean[c]! += colour[CHANNELS * j + c]!;
    n++;
  });
  for (let c = 0; c < CHANNELS; c++) mean[c] = n > 0 ? mean[c]! / n : c < 3 ? 128 : 0;
  return mean;
}

function forNeighbours(i: number, width: number, height: number, visit: (j: number) => void): void {
  const x = i % width;
  const y = (i - x) / width;
  for (let dy = -1; dy <= 1; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= height) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
      visit(ny * width + nx);
    }
  }
}
