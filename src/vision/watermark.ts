import type { RawImage } from './raw-image.js';

/** "TEST" in a 5 × 7 pixel font, one string per row, `#` inked; letters one column apart. */
const GLYPHS: Record<string, string[]> = {
  T: ['#####', '..#..', '..#..', '..#..', '..#..', '..#..', '..#..'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  S: ['.####', '#....', '#....', '.###.', '....#', '....#', '####.'],
};
const TEXT = 'TEST';
/** The label in cells: the text and a one-cell border all round. */
const LABEL_COLUMNS = TEXT.length * 6 - 1 + 2;
const LABEL_ROWS = 7 + 2;
/** The label's height as a share of the image's shorter side. */
const LABEL_SHARE = 0.12;
/** Opacity of the dark plate behind the letters, and of the white letters. */
const PLATE_ALPHA = 0.45;
const INK_ALPHA = 0.85;

/** Where the label lies: its top-left pixel and its size in cells of `cell` pixels. */
export interface WatermarkPlacement {
  left: number;
  top: number;
  cell: number;
}

/**
 * Where the label of an image goes: its bottom-right corner, one cell in from the edges, its height about 12 % of the
 * shorter side (cells of at least one pixel; on an image smaller than the label, the part that fits).
 */
export function watermarkPlacement(width: number, height: number): WatermarkPlacement {
  const cell = Math.max(1, Math.floor((Math.min(width, height) * LABEL_SHARE) / LABEL_ROWS));
  return { cell, left: Math.max(0, width - (LABEL_COLUMNS + 1) * cell), top: Math.max(0, height - (LABEL_ROWS + 1) * cell) };
}

/** The label's opacity at cell (column, row): the plate's, or the ink's where a letter is. */
function cellAlpha(column: number, row: number): { alpha: number; ink: boolean } {
  const x = column - 1;
  const y = row - 1;
  const glyph = GLYPHS[TEXT[Math.floor(x / 6)] ?? ''];
  const ink = x >= 0 && y >= 0 && y < 7 && x % 6 < 5 && glyph?.[y]?.[x % 6] === '#';
  return ink ? { alpha: INK_ALPHA, ink } : { alpha: PLATE_ALPHA, ink };
}

/**
 * Draws a semi-transparent "TEST" label (white letters on a dark plate) into the image's bottom-right corner, in
 * place, and marks the pixels it covered in `changeMask` (one channel, the image's size) when given. Every other
 * pixel stays as it was. Transparent pixels under the label become as opaque as the label.
 */
export function drawTestWatermark(image: RawImage, changeMask?: RawImage): void {
  const { width, height, channels, data } = image;
  const { left, top, cell } = watermarkPlacement(width, height);
  const colourChannels = channels === 2 || channels === 4 ? channels - 1 : channels;
  for (let row = 0; row < LABEL_ROWS; row++) {
    for (let column = 0; column < LABEL_COLUMNS; column++) {
      const { alpha, ink } = cellAlpha(column, row);
      const colour = ink ? 255 : 0;
      for (let y = top + row * cell; y < Math.min(height, top + (row + 1) * cell); y++) {
        for (let x = left + column * cell; x < Math.min(width, left + (column + 1) * cell); x++) {
          const pixel = y * width + x;
          const base = pixel * channels;
          for (let c = 0; c < colourChannels; c++) data[base + c] = Math.round(data[base + c]! * (1 - alpha) + colour * alpha);
          if (colourChannels < channels) data[base + colourChannels] = Math.round(data[base + colourChannels]! + (255 - data[base + colourChannels]!) * alpha);
          if (changeMask) changeMask.data[pixel] = 255;
        }
      }
    }
  }
}
