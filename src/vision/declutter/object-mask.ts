import type { Box } from '../box.js';
import { pixelBounds } from '../box.js';
import type { RawImage } from '../raw-image.js';
import { closeMask } from '../mask-morphology.js';
import { growContactShadow, type ContactShadowOptions } from './contact-shadow.js';
import { DEFINITE_BACKGROUND, grabCut, UNKNOWN, type GrabCutOptions } from './grabcut.js';
import { dilateRound, fillHoles, keepComponentsTouching } from './mask-shapes.js';
import { regionGrid, sampleMaskOnGrid } from './region-grid.js';
import { paintRegionMask, type RegionMask } from './region-mask.js';
import { upsampleMask } from './upsample-mask.js';

export interface ObjectMaskContext {
  /** Full-image, 1 where the room layout says floor: the contact shadow grows only over these pixels. */
  floorLabels?: Uint8Array;
  /** Full-image, 1 on windows, doors and the room's structure: never part of a mask. */
  protectedMask?: Uint8Array;
}

export interface ObjectMaskOptions extends GrabCutOptions {
  /** Longer side, in working cells, that the box is reduced to. Default 192. */
  workingSize?: number;
  /** Background ring around the box, as a fraction of the box's width / height on each side. Default 0.25. */
  ring?: number;
  /** Band just outside the box that is left undecided (detector boxes cut objects a little), fraction. Default 0.03. */
  slack?: number;
  /** Central share of the box's width and height whose components are kept. Default 0.5. */
  core?: number;
  /** Final growth, as a fraction of the box's longer side. Default 0.012. */
  margin?: number;
  /** Least final growth in image pixels. Default 3. */
  minMargin?: number;
  /** Grow over the contact shadow (see growContactShadow); false to skip. Default {}. */
  shadow?: ContactShadowOptions | false;
}

/**
 * The pixels of the object in `box`, ready to be removed: GrabCut on the box and a ring around it at a working
 * resolution (the ring beyond the box's border, and protected cells, are definite background; the box is undecided),
 * then gaps closed and holes filled, only components reaching the box's core kept, the contact shadow below the object
 * added, a margin added (a leftover rim is worse than a slightly larger hole), and protected pixels taken out.
 * Returns the mask over the rectangle of the box and its ring (image pixels; paint it with paintRegionMask), so ten
 * boxes on a 12 MP photo do not allocate ten 12 MB masks.
 */
export function objectMask(image: RawImage, box: Box, context: ObjectMaskContext = {}, options: ObjectMaskOptions = {}): RegionMask {
  const { width: imageWidth, height: imageHeight } = image;
  const workingSize = options.workingSize ?? 192;
  const ringFraction = options.ring ?? 0.25;
  const slack = options.slack ?? 0.03;
  const coreFraction = options.core ?? 0.5;
  const marginFraction = options.margin ?? 0.012;
  const minMargin = options.minMargin ?? 3;

  const bounds = pixelBounds(box, imageWidth, imageHeight);
  if (!bounds) return { x: 0, y: 0, width: 0, height: 0, data: new Uint8Array(0) };
  const boxLong = Math.max(box.width, box.height);
  const ringX = Math.max(ringFraction * box.width, 0.1 * boxLong);
  const ringY = Math.max(ringFraction * box.height, 0.1 * boxLong);
  const region = pixelBounds({ x: box.x - ringX, y: box.y - ringY, width: box.width + 2 * ringX, height: box.height + 2 * ringY }, imageWidth, imageHeight)!;
  const [rx0, ry0, rx1, ry1] = region;
  const regionLong = Math.max(rx1 - rx0, ry1 - ry0);
  const grid = regionGrid(image, rx0, ry0, rx1, ry1, Math.max(8, Math.round((workingSize * regionLong) / Math.max(1, boxLong))));
  const { width, height, scaleX, scaleY } = grid;
  const n = width * height;

  // Trimap and core, judged at cell centres in image pixels.
  const slackX = slack * box.width, slackY = slack * box.height;
  const coreX = ((1 - coreFraction) / 2) * box.width, coreY = ((1 - coreFraction) / 2) * box.height;
  const protectedCells = context.protectedMask ? sampleMaskOnGrid(context.protectedMask, imageWidth, grid) : undefined;
  const floorCells = context.floorLabels ? sampleMaskOnGrid(context.floorLabels, imageWidth, grid) : undefined;
  const trimap = new Uint8Array(n);
  const core = new Uint8Array(n);
  let backgroundCells = 0;
  for (let gy = 0; gy < height; gy++) {
    const y = ry0 + (gy + 0.5) * scaleY;
    for (let gx = 0; gx < width; gx++) {
      const x = rx0 + (gx + 0.5) * scaleX;
      const i = gy * width + gx;
      const inside = x >= box.x - slackX && x <= box.x + box.width + slackX && y >= box.y - slackY && y <= box.y + box.height + slackY;
      const blocked = protectedCells !== undefined && protectedCells[i] === 1;
      trimap[i] = inside && !blocked ? UNKNOWN : DEFINITE_BACKGROUND;
      if (trimap[i] === DEFINITE_BACKGROUND) backgroundCells++;
      core[i] = x >= box.x + coreX && x <= box.x + box.width - coreX && y >= box.y + coreY && y <= box.y + box.height - coreY ? 1 : 0;
    }
  }

  let cells: Uint8Array;
  if (backgroundCells < 16) {
    // Nothing around the box to learn the background from (a box filling the photo): the box itself.
    cells = new Uint8Array(n);
    for (let i = 0; i < n; i++) cells[i] = trimap[i] === UNKNOWN ? 1 : 0;
  } else {
    cells = grabCut(grid.lab, width, height, trimap, options);
    cells = keepComponentsTouching(fillHoles(closeMask(cells, width, height, 1), width, height), width, height, core);
    if (options.shadow !== false) {
      const shadowOptions = { ...(options.shadow ?? {}), ...(floorCells ? { floor: floorCells } : {}), ...(protectedCells ? { blocked: protectedCells } : {}) };
      cells = fillHoles(growContactShadow(grid.lab, width, height, cells, shadowOptions), width, height);
    }
  }
  const marginPixels = Math.max(minMargin, marginFraction * boxLong);
  cells = dilateRound(cells, width, height, Math.max(1, marginPixels / Math.max(scaleX, scaleY)));

  // Back to image pixels, protected pixels removed.
  const outWidth = rx1 - rx0, outHeight = ry1 - ry0;
  const data = upsampleMask(cells, width, height, outWidth, outHeight);
  const protectedMask = context.protectedMask;
  if (protectedMask) {
    for (let y = 0; y < outHeight; y++) {
      const imageRow = (ry0 + y) * imageWidth + rx0;
      for (let x = 0; x < outWidth; x++) if (protectedMask[imageRow + x]) data[y * outWidth + x] = 0;
    }
  }
  return { x: rx0, y: ry0, width: outWidth, height: outHeight, data };
}

/** The union of the objects' masks over the whole image (1 = remove). */
export function objectMasks(image: RawImage, boxes: readonly Box[], context: ObjectMaskContext = {}, options: ObjectMaskOptions = {}): Uint8Array {
  const mask = new Uint8Array(image.width * image.height);
  for (const box of boxes) paintRegionMask(mask, image.width, objectMask(image, box, context, options));
  return mask;
}
