/**
 * A robust multi-modal model of a surface's appearance: k-means clusters of feature vectors (a patterned tile floor
 * has several looks), each with its own per-feature robust spread (1.4826 · median absolute deviation), so that how
 * far a new cell lies from the surface is measured in the surface's own units.
 */
export interface FeatureClusters {
  dimensions: number;
  count: number;
  centre: Float64Array; // dimensions per cluster
  spread: Float64Array; // dimensions per cluster
  share: Float64Array;
}

/**
 * Fits up to `k` clusters to the feature vectors (`dimensions` values per cell, interleaved) of the listed cells;
 * clusters holding less than `minShare` of them are dropped (an object the size of a tenth of the floor must not become
 * part of the floor). `minSpread` bounds each feature's spread from below (flat synthetic floors have none).
 */
export function fitFeatureClusters(
  features: Float32Array,
  dimensions: number,
  cells: Int32Array,
  k: number,
  minShare: number,
  minSpread: readonly number[],
): FeatureClusters {
  const n = cells.length;
  const step = Math.max(1, Math.floor(n / 8000));
  const sample: number[] = [];
  for (let s = 0; s < n; s += step) sample.push(cells[s]!);
  const m = sample.length;
  // Scale each feature by its overall robust spread so that k-means weighs them alike.
  const scale = new Float64Array(dimensions);
  for (let d = 0; d < dimensions; d++) {
    const values = Float32Array.from(sample, (i) => features[i * dimensions + d]!);
    scale[d] = Math.max(minSpread[d]!, robustSpread(values));
  }
  const distance = (i: number, centres: Float64Array, c: number) => {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) {
      const t = (features[i * dimensions + d]! - centres[c * dimensions + d]!) / scale[d]!;
      sum += t * t;
    }
    return sum;
  };
  let centres = new Float64Array(k * dimensions);
  // Farthest-point seeds from the median vector.
  for (let d = 0; d < dimensions; d++) {
    const values = Float32Array.from(sample, (i) => features[i * dimensions + d]!).sort();
    centres[d] = values[Math.floor(m / 2)] ?? 0;
  }
  const nearest = new Float64Array(m).fill(Infinity);
  let count = Math.min(k, m);
  for (let c = 1; c < count; c++) {
    let best = 0, bestDistance = -1;
    for (let s = 0; s < m; s++) {
      nearest[s] = Math.min(nearest[s]!, distance(sample[s]!, centres, c - 1));
      if (nearest[s]! > bestDistance) {
        bestDistance = nearest[s]!;
        best = sample[s]!;
      }
    }
    for (let d = 0; d < dimensions; d++) centres[c * dimensions + d] = features[best * dimensions + d]!;
  }
  const label = new Int32Array(m);
  const assign = () => {
    for (let s = 0; s < m; s++) {
      let best = 0, bestDistance = Infinity;
      for (let c = 0; c < count; c++) {
        const dist = distance(sample[s]!, centres, c);
        if (dist < bestDistance) {
          bestDistance = dist;
          best = c;
        }
      }
      label[s] = best;
    }
  };
  for (let iteration = 0; iteration < 10; iteration++) {
    assign();
    const sums = new Float64Array(count * (dimensions + 1));
    for (let s = 0; s < m; s++) {
      const o = label[s]! * (dimensions + 1);
      for (let d = 0; d < dimensions; d++) sums[o + d]! += features[sample[s]! * dimensions + d]!;
      sums[o + dimensions]! += 1;
    }
    // Drop small clusters and recentre the rest.
    const kept = new Float64Array(count * dimensions);
    let next = 0;
    for (let c = 0; c < count; c++) {
      const o = c * (dimensions + 1);
      const size = sums[o + dimensions]!;
      if (size < minShare * m && iteration >= 3) continue;
      if (size === 0) continue;
      for (let d = 0; d < dimensions; d++) kept[next * dimensions + d] = sums[o + d]! / size;
      next++;
    }
    count = Math.max(1, next);
    centres = kept;
  }
  assign();
  // Per-cluster robust spread of each feature around the cluster's median.
  const spread = new Float64Array(count * dimensions);
  const centre = new Float64Array(count * dimensions);
  const share = new Float64Array(count);
  const members: number[][] = Array.from({ length: count }, () => []);
  for (let s = 0; s < m; s++) members[label[s]!]!.push(sample[s]!);
  for (let c = 0; c < count; c++) {
    const own = members[c]!;
    share[c] = own.length / m;
    const values = new Float32Array(own.length);
    for (let d = 0; d < dimensions; d++) {
      for (let k = 0; k < own.length; k++) values[k] = features[own[k]! * dimensions + d]!;
      values.sort();
      const middle = values.length > 0 ? values[Math.floor(values.length / 2)]! : centres[c * dimensions + d]!;
      centre[c * dimensions + d] = middle;
      spread[c * dimensions + d] = Math.max(minSpread[d]!, robustSpread(values, middle));
    }
  }
  return { dimensions, count, centre, spread, share };
}

/** Index of the cluster nearest (in robust z-score length, all features) to the cell's features. */
export function nearestCluster(model: FeatureClusters, features: Float32Array, cell: number): number {
  const { dimensions } = model;
  let best = 0, bestSum = Infinity;
  for (let c = 0; c < model.count; c++) {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) {
      const t = (features[cell * dimensions + d]! - model.centre[c * dimensions + d]!) / model.spread[c * dimensions + d]!;
      sum += t * t;
    }
    if (sum < bestSum) {
      bestSum = sum;
      best = c;
    }
  }
  return best;
}

/**
 * Length of the vector of robust z-scores of the cell's features against the nearest cluster, over the features whose
 * flag in `use` is true: one feature five spreads off scores 5, as do four features 2.5 spreads off.
 */
export function clusterDistance(model: FeatureClusters, features: Float32Array, cell: number, use: readonly boolean[]): number {
  const { dimensions } = model;
  let best = Infinity;
  for (let c = 0; c < model.count; c++) {
    let sum = 0;
    for (let d = 0; d < dimensions; d++) {
      if (!use[d]) continue;
      const t = (features[cell * dimensions + d]! - model.centre[c * dimensions + d]!) / model.spread[c * dimensions + d]!;
      sum += t * t;
    }
    if (sum < best) best = sum;
  }
  return Math.sqrt(best);
}

/** 1.4826 · median |x − centre| (centre defaults to the median); sorts `values`. */
function robustSpread(values: Float32Array, centre?: number): number {
  if (values.length === 0) return 0;
  values.sort();
  const middle = centre ?? values[Math.floor(values.length / 2)]!;
  const deviations = new Float32Array(values.length);
  for (let k = 0; k < values.length; k++) deviations[k] = Math.abs(values[k]! - middle);
  deviations.sort();
  return 1.4826 * deviations[Math.floor(deviations.length / 2)]!;
}
