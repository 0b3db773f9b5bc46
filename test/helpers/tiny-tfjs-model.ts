/**
 * Builds small tfjs layers models (model.json object + weight shard) with seeded random weights, and keeps beside
 * each layer a naive NHWC implementation of what Keras computes, so that converters can be checked against it.
 */

import { seededRandom } from './seeded-random.js';

export interface NhwcImage {
  height: number;
  width: number;
  channels: number;
  data: Float32Array;
}

type Reference = (inputs: NhwcImage[]) => NhwcImage;

interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: 'float32';
  quantization?: { dtype: 'uint8' | 'uint16'; min: number; scale: number; original_dtype: 'float32' };
}

export interface ConvSpec {
  filters: number;
  kernel: [number, number];
  padding?: 'same' | 'valid';
  strides?: number;
  dilation?: number;
  activation?: 'linear' | 'relu';
  useBias?: boolean;
  quantize?: 'uint8' | 'uint16';
}

export class TinyModelBuilder {
  private readonly layers: Record<string, unknown>[] = [];
  private readonly references = new Map<string, { inputs: string[]; run: Reference }>();
  private readonly channels = new Map<string, number>();
  private readonly manifest: ManifestEntry[] = [];
  private readonly weightBytes: Uint8Array[] = [];
  private readonly random: () => number;
  private inputName = '';

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  input(name: string, channels: number): string {
    this.inputName = name;
    this.channels.set(name, channels);
    this.layers.push({
      class_name: 'InputLayer',
      name,
      config: { batch_input_shape: [null, null, null, channels], dtype: 'float32', sparse: false, ragged: false, name },
      inbound_nodes: [],
    });
    return name;
  }

  conv(name: string, input: string, spec: ConvSpec): string {
    const [kh, kw] = spec.kernel;
    const cin = this.channels.get(input)!;
    const kernel = this.addWeight(`${name}/kernel`, [kh, kw, cin, spec.filters], 0.5, spec.quantize);
    const bias = spec.useBias === false ? null : this.addWeight(`${name}/bias`, [spec.filters], 0.2);
    const config = {
      name,
      filters: spec.filters,
      kernel_size: spec.kernel,
      strides: [spec.strides ?? 1, spec.strides ?? 1],
      padding: spec.padding ?? 'same',
      data_format: 'channels_last',
      dilation_rate: [spec.dilation ?? 1, spec.dilation ?? 1],
      groups: 1,
      activation: spec.activation ?? 'linear',
      use_bias: spec.useBias !== false,
    };
    return this.add('Conv2D', name, [input], config, spec.filters, ([x]) => {
      const y = conv2d(x!, kernel, [kh, kw, cin, spec.filters], bias, spec);
      return spec.activation === 'relu' ? map(y, (v) => Math.max(0, v)) : y;
    });
  }

  relu(name: string, input: string): string {
    return this.add('Activation', name, [input], { name, activation: 'relu' }, this.channels.get(input)!, ([x]) =>
      map(x!, (v) => Math.max(0, v)),
    );
  }

  leakyRelu(name: string, input: string, alpha: number): string {
    return this.add('LeakyReLU', name, [input], { name, alpha }, this.channels.get(input)!, ([x]) =>
      map(x!, (v) => (v < 0 ? alpha * v : v)),
    );
  }

  concatenate(name: string, inputs: string[]): string {
    const channels = inputs.reduce((sum, input) => sum + this.channels.get(input)!, 0);
    return this.add('Concatenate', name, inputs, { name, axis: -1 }, channels, (xs) => {
      const { height, width } = xs[0]!;
      const out = blank(height, width, channels);
      for (let p = 0; p < height * width; p++) {
        let c = 0;
        for (const x of xs) for (let k = 0; k < x.channels; k++) out.data[p * channels + c++] = x.data[p * x.channels + k]!;
      }
      return out;
    });
  }

  sum(name: string, inputs: string[]): string {
    return this.add('Add', name, inputs, { name }, this.channels.get(inputs[0]!)!, (xs) => {
      const out = map(xs[0]!, () => 0);
      for (const x of xs) x.data.forEach((v, i) => (out.data[i] = out.data[i]! + v));
      return out;
    });
  }

  multiplyBeta(name: string, input: string): string {
    return this.add('MultiplyBeta', name, [input], { name, beta: 0.2 }, this.channels.get(input)!, ([x]) =>
      map(x!, (v) => v * 0.2),
    );
  }

  pixelShuffle(name: string, input: string, block: number): string {
    const cin = this.channels.get(input)!;
    const cout = cin / (block * block);
    return this.add(`PixelShuffle${block}x`, name, [input], { name, scale: block }, cout, ([x]) => {
      const out = blank(x!.height * block, x!.width * block, cout);
      for (let y = 0; y < out.height; y++) {
        for (let xx = 0; xx < out.width; xx++) {
          for (let c = 0; c < cout; c++) {
            const sourceChannel = ((y % block) * block + (xx % block)) * cout + c;
            out.data[(y * out.width + xx) * cout + c] = at(x!, Math.floor(y / block), Math.floor(xx / block), sourceChannel);
          }
        }
      }
      return out;
    });
  }

  upsample(name: string, input: string, size: number): string {
    const channels = this.channels.get(input)!;
    const config = { name, size: [size, size], data_format: 'channels_last', interpolation: 'nearest' };
    return this.add('UpSampling2D', name, [input], config, channels, ([x]) => {
      const out = blank(x!.height * size, x!.width * size, channels);
      for (let y = 0; y < out.height; y++) {
        for (let xx = 0; xx < out.width; xx++) {
          for (let c = 0; c < channels; c++) {
            out.data[(y * out.width + xx) * channels + c] = at(x!, Math.floor(y / size), Math.floor(xx / size), c);
          }
        }
      }
      return out;
    });
  }

  /** A layer of any class, for error paths; it has no reference. */
  custom(className: string, name: string, inputs: string[], channels: number): string {
    return this.add(className, name, inputs, { name }, channels, () => {
      throw new Error(`${className} has no reference implementation`);
    });
  }

  build(output: string): { modelJson: unknown; shards: Uint8Array[] } {
    const shard = new Uint8Array(this.weightBytes.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of this.weightBytes) {
      shard.set(part, offset);
      offset += part.length;
    }
    const modelJson = {
      format: 'layers-model',
      generatedBy: 'keras v2.10.0',
      convertedBy: 'TensorFlow.js Converter v1.2.6',
      modelTopology: {
        keras_version: '2.10.0',
        backend: 'tensorflow',
        model_config: {
          class_name: 'Functional',
          config: { name: 'tiny', layers: this.layers, input_layers: [[this.inputName, 0, 0]], output_layers: [[output, 0, 0]] },
        },
      },
      weightsManifest: [{ paths: ['group1-shard1of1.bin'], weights: this.manifest }],
    };
    return { modelJson, shards: [shard] };
  }

  /** Runs the naive reference of the model on `input`, up to the layer `output`. */
  reference(output: string, input: NhwcImage): NhwcImage {
    const cache = new Map<string, NhwcImage>([[this.inputName, input]]);
    const evaluate = (name: string): NhwcImage => {
      const cached = cache.get(name);
      if (cached) return cached;
      const { inputs, run } = this.references.get(name)!;
      const value = run(inputs.map(evaluate));
      cache.set(name, value);
      return value;
    };
    return evaluate(output);
  }

  randomImage(height: number, width: number, channels: number): NhwcImage {
    const image = blank(height, width, channels);
    for (let i = 0; i < image.data.length; i++) image.data[i] = this.random();
    return image;
  }

  private add(
    className: string,
    name: string,
    inputs: string[],
    config: Record<string, unknown>,
    channels: number,
    run: Reference,
  ): string {
    this.layers.push({ class_name: className, name, config, inbound_nodes: [inputs.map((input) => [input, 0, 0, {}])] });
    this.references.set(name, { inputs, run });
    this.channels.set(name, channels);
    return name;
  }

  /** Stores a random weight; a quantised one is returned as tfjs will decode it, so the reference sees the same values. */
  private addWeight(name: string, shape: number[], amplitude: number, quantize?: 'uint8' | 'uint16'): Float32Array {
    const count = shape.reduce((product, size) => product * size, 1);
    const values = Float32Array.from({ length: count }, () => (this.random() * 2 - 1) * amplitude);
    if (!quantize) {
      this.manifest.push({ name, shape, dtype: 'float32' });
      this.weightBytes.push(new Uint8Array(values.buffer));
      return values;
    }
    const levels = quantize === 'uint8' ? 255 : 65535;
    const min = Math.min(...values);
    const scale = (Math.max(...values) - min) / levels;
    const levelOf = (v: number) => Math.round((v - min) / scale);
    const quantized = quantize === 'uint8' ? Uint8Array.from(values, levelOf) : Uint16Array.from(values, levelOf);
    this.manifest.push({ name, shape, dtype: 'float32', quantization: { dtype: quantize, min, scale, original_dtype: 'float32' } });
    this.weightBytes.push(new Uint8Array(quantized.buffer));
    return Float32Array.from(quantized, (q) => q * scale + min);
  }
}

function blank(height: number, width: number, channels: number): NhwcImage {
  return { height, width, channels, data: new Float32Array(height * width * channels) };
}

function map(image: NhwcImage, f: (v: number) => number): NhwcImage {
  return { ...image, data: image.data.map(f) };
}

function at(image: NhwcImage, y: number, x: number, c: number): number {
  return image.data[(y * image.width + x) * image.channels + c]!;
}

/** TensorFlow's conv2d, padding included: "same" gives ceil(size / stride) outputs, the odd padding pixel at the end. */
function conv2d(
  x: NhwcImage,
  kernel: Float32Array,
  [kh, kw, cin, cout]: [number, number, number, number],
  bias: Float32Array | null,
  spec: ConvSpec,
): NhwcImage {
  const stride = spec.strides ?? 1;
  const dilation = spec.dilation ?? 1;
  const extentH = (kh - 1) * dilation + 1;
  const extentW = (kw - 1) * dilation + 1;
  let outH: number, outW: number, padTop: number, padLeft: number;
  if ((spec.padding ?? 'same') === 'same') {
    outH = Math.ceil(x.height / stride);
    outW = Math.ceil(x.width / stride);
    padTop = Math.floor(Math.max((outH - 1) * stride + extentH - x.height, 0) / 2);
    padLeft = Math.floor(Math.max((outW - 1) * stride + extentW - x.width, 0) / 2);
  } else {
    outH = Math.floor((x.height - extentH) / stride) + 1;
    outW = Math.floor((x.width - extentW) / stride) + 1;
    padTop = 0;
    padLeft = 0;
  }
  const out = blank(outH, outW, cout);
  for (let oy = 0; oy < outH; oy++) {
    for (let ox = 0; ox < outW; ox++) {
      for (let o = 0; o < cout; o++) {
        let acc = bias ? bias[o]! : 0;
        for (let ky = 0; ky < kh; ky++) {
          const iy = oy * stride + ky * dilation - padTop;
          if (iy < 0 || iy >= x.height) continue;
          for (let kx = 0; kx < kw; kx++) {
            const ix = ox * stride + kx * dilation - padLeft;
            if (ix < 0 || ix >= x.width) continue;
            for (let i = 0; i < cin; i++) acc += at(x, iy, ix, i) * kernel[((ky * kw + kx) * cin + i) * cout + o]!;
          }
        }
        out.data[(oy * outW + ox) * cout + o] = acc;
      }
    }
  }
  return out;
}

export function nhwcToNchw(image: NhwcImage): Float32Array {
  const { height, width, channels } = image;
  const out = new Float32Array(image.data.length);
  for (let p = 0; p < height * width; p++) {
    for (let c = 0; c < channels; c++) out[c * height * width + p] = image.data[p * channels + c]!;
  }
  return out;
}
