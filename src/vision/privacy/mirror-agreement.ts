import { intersectionOverUnion, type ScoredBox } from '../box.js';

/** Planes of rows `width` long (NCHW, any number of rows) mirrored left to right. */
export function mirrorRows(input: Float32Array, width: number): Float32Array {
  const out = new Float32Array(input.length);
  for (let start = 0; start < input.length; start += width) {
    for (let x = 0; x < width; x++) out[start + x] = input[start + width - 1 - x]!;
  }
  return out;
}

/**
 * Detections confirmed by the mirrored view of the same input. A face is a face in a mirror too, while most false
 * detections (a lamp, a sticker, a chimney) are one-view flukes. `mirrored` holds the mirror's detections already
 * flipped back. Each box is paired with the best overlapping box of the other view; the pair's score is the mean
 * of both (0 for a view that saw nothing) and its box their score-weighted mean.
 */
export function agreeWithMirror(direct: readonly ScoredBox[], mirrored: readonly ScoredBox[], iouThreshold = 0.3): ScoredBox[] {
  const unpaired = new Set(mirrored);
  const agreed: ScoredBox[] = [];
  for (const box of direct) {
    let partner: ScoredBox | undefined;
    for (const candidate of unpaired) {
      if (intersectionOverUnion(box, candidate) > iouThreshold && (!partner || candidate.score > partner.score)) partner = candidate;
    }
    if (partner) unpaired.delete(partner);
    agreed.push(pair(box, partner));
  }
  for (const box of unpaired) agreed.push(pair(box, undefined));
  return agreed;
}

function pair(a: ScoredBox, b: ScoredBox | undefined): ScoredBox {
  if (!b) return { ...a, score: a.score / 2 };
  const total = a.score + b.score;
  const mean = (pick: (box: ScoredBox) => number): number => (pick(a) * a.score + pick(b) * b.score) / total;
  return { x: mean((box) => box.x), y: mean((box) => box.y), width: mean((box) => box.width), height: mean((box) => box.height), score: total / 2 };
}
