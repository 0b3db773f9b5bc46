import { intersectionOverUnion, type ScoredBox } from './box.js';

/**
 * Greedy non-maximum suppression: the best box wins, and every box overlapping it by more than `iouThreshold`
 * is dropped. With `blend`, the winner becomes the score-weighted mean of itself and the boxes it suppressed,
 * which is MediaPipe's "weighted" suppression for BlazeFace: steadier boxes than the single best anchor's.
 */
export function nonMaxSuppression<T extends ScoredBox>(boxes: readonly T[], iouThreshold: number, blend = false): T[] {
  const remaining = [...boxes].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  while (remaining.length > 0) {
    const best = remaining[0]!;
    const cluster: T[] = [];
    for (let i = remaining.length - 1; i >= 0; i--) {
      if (intersectionOverUnion(best, remaining[i]!) > iouThreshold || i === 0) cluster.push(...remaining.splice(i, 1));
    }
    kept.push(blend ? weightedMean(best, cluster) : best);
  }
  return kept;
}

function weightedMean<T extends ScoredBox>(best: T, cluster: readonly T[]): T {
  const total = cluster.reduce((sum, box) => sum + box.score, 0);
  const mean = (pick: (box: T) => number): number => cluster.reduce((sum, box) => sum + pick(box) * box.score, 0) / total;
  return { ...best, x: mean((b) => b.x), y: mean((b) => b.y), width: mean((b) => b.width), height: mean((b) => b.height) };
}
