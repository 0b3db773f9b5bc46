/**
 * A Gaussian mixture over 3-D colours (full covariances), the colour model of GrabCut (Rother, Kolmogorov and Blake,
 * 2004): fitted by k-means and refitted from hard assignments, which is all that GrabCut's iterations need.
 */

export interface ColourMixture {
  components: number;
  weight: Float64Array;
  mean: Float64Array; // 3 per component
  /** Inverse covariance, 9 per component (row-major). */
  inverse: Float64Array;
  /** log(weight) − ½·log det Σ − 1.5·log 2π per component. */
  logNorm: Float64Array;
}

/** Variance added to every covariance's diagonal: keeps flat regions (a wall of one colour) from collapsing. */
const REGULARISER = 2;

/**
 * Fits a mixture of up to `components` Gaussians to the colours (3 per sample, interleaved) of the samples listed in
 * `indices`. k-means from deterministic farthest-point seeds, then one Gaussian per cluster.
 */
export function fitColourMixture(colours: Float32Array, indices: Int32Array, components: number, iterations = 6): ColourMixture {
  const n = indices.length;
  const k = Math.max(1, Math.min(components, n));
  const centres = new Float64Array(k * 3);
  // Farthest-point seeding from a subsample keeps it O(n·k) and deterministic.
  const step = Math.max(1, Math.floor(n / 4000));
  if (n === 0) return singleGaussian([50, 0, 0]);
  const distance = new Float64Array(Math.ceil(n / step)).fill(Infinity);
  // First seed: the subsample's mean, then the point farthest from all seeds so far.
  let mr = 0, mg = 0, mb = 0, count = 0;
  for (let s = 0; s < n; s += step) {
    const p = indices[s]! * 3;
    mr += colours[p]!;
    mg += colours[p + 1]!;
    mb += colours[p + 2]!;
    count++;
  }
  centres[0] = mr / count;
  centres[1] = mg / count;
  centres[2] = mb / count;
  for (let c = 1; c < k; c++) {
    let best = -1, bestDistance = -1;
    for (let s = 0, t = 0; s < n; s += step, t++) {
      const p = indices[s]! * 3;
      const d = squaredDistance(colours, p, centres, (c - 1) * 3);
      if (d < distance[t]!) distance[t] = d;
      if (distance[t]! > bestDistance) {
        bestDistance = distance[t]!;
        best = p;
      }
    }
    centres[c * 3] = colours[best]!;
    centres[c * 3 + 1] = colours[best + 1]!;
    centres[c * 3 + 2] = colours[best + 2]!;
  }
  const label = new Uint8Array(n);
  // The centres are found on a subsample of at most ~8000 samples; every sample is assigned at the end.
  const kStep = Math.max(1, Math.floor(n / 8000));
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let s = 0; s < n; s += kStep) label[s] = nearestCentre(colours, indices[s]! * 3, centres, k);
    const sums = new Float64Array(k * 4);
    for (let s = 0; s < n; s += kStep) {
      const p = indices[s]! * 3;
      const c = label[s]! * 4;
      sums[c]! += colours[p]!;
      sums[c + 1]! += colours[p + 1]!;
      sums[c + 2]! += colours[p + 2]!;
      sums[c + 3]! += 1;
    }
    for (let c = 0; c < k; c++) {
      const m = sums[c * 4 + 3]!;
      if (m === 0) continue;
      centres[c * 3] = sums[c * 4]! / m;
      centres[c * 3 + 1] = sums[c * 4 + 1]! / m;
      centres[c * 3 + 2] = sums[c * 4 + 2]! / m;
    }
  }
  for (let s = 0; s < n; s++) label[s] = nearestCentre(colours, indices[s]! * 3, centres, k);
  return mixtureFromLabels(colours, indices, label, k);
}

/** Refits a mixture's Gaussians to the samples' current most likely components (GrabCut's step 1–2). */
export function refitColourMixture(model: ColourMixture, colours: Float32Array, indices: Int32Array): ColourMixture {
  const label = new Uint8Array(indices.length);
  for (let s = 0; s < indices.length; s++) label[s] = likeliestComponent(model, colours, indices[s]! * 3);
  return mixtureFromLabels(colours, indices, label, model.components);
}

/** −log density at the colours of the listed samples (3 values per sample in `colours`). */
export function negativeLogLikelihoods(model: ColourMixture, colours: Float32Array, indices: Int32Array): Float32Array {
  const out = new Float32Array(indices.length);
  const k = model.components;
  const { mean, inverse: m, logNorm, weight } = model;
  const terms = new Float64Array(k);
  for (let s = 0; s < indices.length; s++) {
    const p = indices[s]! * 3;
    const x = colours[p]!, y = colours[p + 1]!, z = colours[p + 2]!;
    let best = -Infinity;
    for (let c = 0; c < k; c++) {
      if (weight[c] === 0) {
        terms[c] = -Infinity;
        continue;
      }
      const dx = x - mean[c * 3]!, dy = y - mean[c * 3 + 1]!, dz = z - mean[c * 3 + 2]!;
      const o = c * 9;
      const q = m[o]! * dx * dx + m[o + 4]! * dy * dy + m[o + 8]! * dz * dz + 2 * (m[o + 1]! * dx * dy + m[o + 2]! * dx * dz + m[o + 5]! * dy * dz);
      const t = logNorm[c]! - 0.5 * q;
      terms[c] = t;
      if (t > best) best = t;
    }
    if (best === -Infinity) {
      out[s] = 1e3;
      continue;
    }
    let sum = 0;
    for (let c = 0; c < k; c++) sum += Math.exp(terms[c]! - best);
    out[s] = -(best + Math.log(sum));
  }
  return out;
}

function logComponent(model: ColourMixture, c: number, colours: Float32Array, offset: number): number {
  if (model.weight[c] === 0) return -Infinity;
  const dx = colours[offset]! - model.mean[c * 3]!;
  const dy = colours[offset + 1]! - model.mean[c * 3 + 1]!;
  const dz = colours[offset + 2]! - model.mean[c * 3 + 2]!;
  const m = model.inverse;
  const o = c * 9;
  const q =
    dx * (m[o]! * dx + m[o + 1]! * dy + m[o + 2]! * dz) +
    dy * (m[o + 3]! * dx + m[o + 4]! * dy + m[o + 5]! * dz) +
    dz * (m[o + 6]! * dx + m[o + 7]! * dy + m[o + 8]! * dz);
  return model.logNorm[c]! - 0.5 * q;
}

function likeliestComponent(model: ColourMixture, colours: Float32Array, offset: number): number {
  let best = 0, bestValue = -Infinity;
  for (let c = 0; c < model.components; c++) {
    const value = logComponent(model, c, colours, offset);
    if (value > bestValue) {
      bestValue = value;
      best = c;
    }
  }
  return best;
}

function mixtureFromLabels(colours: Float32Array, indices: Int32Array, label: Uint8Array, k: number): ColourMixture {
  const sums = new Float64Array(k * 10); // count, 3 sums, 6 second moments
  for (let s = 0; s < indices.length; s++) {
    const p = indices[s]! * 3;
    const o = label[s]! * 10;
    const r = colours[p]!, g = colours[p + 1]!, b = colours[p + 2]!;
    sums[o]! += 1;
    sums[o + 1]! += r;
    sums[o + 2]! += g;
    sums[o + 3]! += b;
    sums[o + 4]! += r * r;
    sums[o + 5]! += r * g;
    sums[o + 6]! += r * b;
    sums[o + 7]! += g * g;
    sums[o + 8]! += g * b;
    sums[o + 9]! += b * b;
  }
  const model: ColourMixture = {
    components: k,
    weight: new Float64Array(k),
    mean: new Float64Array(k * 3),
    inverse: new Float64Array(k * 9),
    logNorm: new Float64Array(k),
  };
  const total = Math.max(1, indices.length);
  for (let c = 0; c < k; c++) {
    const o = c * 10;
    const m = sums[o]!;
    if (m === 0) continue;
    const mr = sums[o + 1]! / m, mg = sums[o + 2]! / m, mb = sums[o + 3]! / m;
    const srr = sums[o + 4]! / m - mr * mr + REGULARISER;
    const srg = sums[o + 5]! / m - mr * mg;
    const srb = sums[o + 6]! / m - mr * mb;
    const sgg = sums[o + 7]! / m - mg * mg + REGULARISER;
    const sgb = sums[o + 8]! / m - mg * mb;
    const sbb = sums[o + 9]! / m - mb * mb + REGULARISER;
    setGaussian(model, c, m / total, [mr, mg, mb], [srr, srg, srb, sgg, sgb, sbb]);
  }
  return model;
}

function setGaussian(model: ColourMixture, c: number, weight: number, mean: number[], cov: number[]): void {
  const [srr, srg, srb, sgg, sgb, sbb] = cov as [number, number, number, number, number, number];
  const i00 = sgg * sbb - sgb * sgb, i01 = srb * sgb - srg * sbb, i02 = srg * sgb - srb * sgg;
  const i11 = srr * sbb - srb * srb, i12 = srg * srb - srr * sgb, i22 = srr * sgg - srg * srg;
  const det = Math.max(1e-9, srr * i00 + srg * i01 + srb * i02);
  model.weight[c] = weight;
  model.mean.set(mean, c * 3);
  model.inverse.set([i00 / det, i01 / det, i02 / det, i01 / det, i11 / det, i12 / det, i02 / det, i12 / det, i22 / det], c * 9);
  model.logNorm[c] = Math.log(weight) - 0.5 * Math.log(det) - 1.5 * Math.log(2 * Math.PI);
}

function singleGaussian(mean: number[]): ColourMixture {
  const model: ColourMixture = {
    components: 1,
    weight: new Float64Array(1),
    mean: new Float64Array(3),
    inverse: new Float64Array(9),
    logNorm: new Float64Array(1),
  };
  setGaussian(model, 0, 1, mean, [400, 0, 0, 400, 0, 400]);
  return model;
}

function nearestCentre(colours: Float32Array, offset: number, centres: Float64Array, k: number): number {
  let best = 0, bestDistance = Infinity;
  for (let c = 0; c < k; c++) {
    const d = squaredDistance(colours, offset, centres, c * 3);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

function squaredDistance(colours: Float32Array, offset: number, centres: Float64Array, centre: number): number {
  const dr = colours[offset]! - centres[centre]!;
  const dg = colours[offset + 1]! - centres[centre + 1]!;
  const db = colours[offset + 2]! - centres[centre + 2]!;
  return dr * dr + dg * dg + db * db;
}
