/**
 * Decoding of a TensorFlow.js weights manifest and its binary shards into float32 tensors,
 * undoing the converter's optional uint8 / uint16 / float16 quantisation.
 */
export interface WeightTensor {
  shape: readonly number[];
  values: Float32Array;
}

export interface WeightsManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; min?: number; scale?: number };
}

export interface WeightsManifestGroup {
  paths: string[];
  weights: WeightsManifestEntry[];
}

/** `shards` holds the bytes of every group's `paths`, groups in manifest order: the order the files are listed in. */
export function decodeTfjsWeights(
  manifest: readonly WeightsManifestGroup[],
  shards: readonly Uint8Array[],
): Map<string, WeightTensor> {
  const expectedShards = manifest.reduce((sum, group) => sum + group.paths.length, 0);
  if (shards.length !== expectedShards) {
    throw new Error(`the weights manifest lists ${expectedShards} shard files but ${shards.length} were given`);
  }
  const weights = new Map<string, WeightTensor>();
  let nextShard = 0;
  for (const group of manifest) {
    const groupBytes = concatenate(shards.slice(nextShard, nextShard + group.paths.length));
    nextShard += group.paths.length;
    let offset = 0;
    for (const entry of group.weights) {
      const count = entry.shape.reduce((product, size) => product * size, 1);
      const byteLength = count * bytesPerValue(entry);
      if (offset + byteLength > groupBytes.length) {
        throw new Error(`weight ${entry.name} runs past the end of its shards (${groupBytes.length} bytes)`);
      }
      // A copy: the entry may start at an offset that a Float32Array view could not be aligned to.
      const bytes = groupBytes.slice(offset, offset + byteLength);
      weights.set(entry.name, { shape: entry.shape, values: decodeValues(entry, bytes, count) });
      offset += byteLength;
    }
    if (offset !== groupBytes.length) {
      throw new Error(`shards of [${group.paths.join(', ')}] hold ${groupBytes.length} bytes, weights use ${offset}`);
    }
  }
  return weights;
}

function bytesPerValue(entry: WeightsManifestEntry): number {
  switch (entry.quantization?.dtype ?? entry.dtype) {
    case 'float32':
      return 4;
    case 'uint16':
    case 'float16':
      return 2;
    case 'uint8':
      return 1;
    default:
      throw new Error(
        `weight ${entry.name}: unsupported storage type ${entry.quantization?.dtype ?? entry.dtype}`,
      );
  }
}

function decodeValues(entry: WeightsManifestEntry, bytes: Uint8Array, count: number): Float32Array {
  if (entry.dtype !== 'float32') throw new Error(`weight ${entry.name}: only float32 weights are supported, not ${entry.dtype}`);
  const quantization = entry.quantization;
  if (!quantization) return new Float32Array(bytes.buffer, bytes.byteOffset, count);
  if (quantization.dtype === 'float16') return halfFloatsToFloat32(new Uint16Array(bytes.buffer, bytes.byteOffset, count));
  const { min, scale } = quantization;
  if (typeof min !== 'number' || typeof scale !== 'number') {
    throw new Error(`weight ${entry.name}: ${quantization.dtype} quantisation needs numeric min and scale`);
  }
  const quantized =
    quantization.dtype === 'uint8' ? bytes : new Uint16Array(bytes.buffer, bytes.byteOffset, count);
  // The same arithmetic as tfjs's decodeWeights, so that the result matches it bit for bit.
  return Float32Array.from(quantized, (q) => q * scale + min);
}

function halfFloatsToFloat32(halves: Uint16Array): Float32Array {
  return Float32Array.from(halves, (half) => {
    const sign = half & 0x8000 ? -1 : 1;
    const exponent = (half >> 10) & 0x1f;
    const fraction = half & 0x3ff;
    if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
    if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
    return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  });
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
