/**
 * UpscalerJS (the `upscaler` package, 1.0.0) in Node on TensorFlow.js's WebAssembly backend, for the side-by-side
 * in `bench/upscale-speed.ts`.
 *
 * The package's Node build (`upscaler/node`) is its shared `getUpscaler` factory wired to `@tensorflow/tfjs-node`,
 * which cannot be installed here (its install script downloads libtensorflow). This builds the same Upscaler class
 * from the same modules of the package — the shared factory, the Node build's options parser, model loader and
 * image helpers — but hands it `@tensorflow/tfjs` with the wasm backend instead. The Node model loader reads a
 * `file://` model path through tf.loadLayersModel, an IO route tfjs-node registers; a minimal equivalent that reads
 * model.json and its shards from disk is registered here. The model definitions mirror the @upscalerjs/esrgan-*
 * packages': scale, input and output range, and for the RRDN models (thick, legacy gans) the custom layers
 * MultiplyBeta (× 0.2) and PixelShuffle{N}x (depth_to_space, NHWC) registered in `setup`.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Tf from '@tensorflow/tfjs';
import { ROOT } from './shared-photos.js';

type TfModule = typeof Tf;
const require = createRequire(import.meta.url);
const UPSCALER_NODE = path.join(ROOT, 'node_modules/upscaler/dist/node/upscalerjs/src');

export interface UpscalerModelDefinition {
  path: string;
  scale: number;
  modelType: 'layers';
  inputRange: [number, number];
  outputRange: [number, number];
  setup?: (tf: TfModule) => void;
}

export interface UpscaleArgs {
  output: 'tensor';
  patchSize?: number;
  padding?: number;
  progress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface UpscalerInstance {
  ready: Promise<void>;
  upscale(image: Tf.Tensor3D, options: UpscaleArgs): Promise<Tf.Tensor3D>;
  dispose(): Promise<void>;
}

export interface UpscalerJs {
  tf: TfModule;
  Upscaler: new (options: { model: UpscalerModelDefinition }) => UpscalerInstance;
  getPatchesFromImage(size: [number, number], patchSize: number, padding: number): Patch[][];
  AbortError: new () => Error;
  backend: string;
}

export interface Patch {
  pre: { origin: [number, number]; size: [number, number] };
  post: { origin: [number, number]; size: [number, number] };
}

/** tfjs on its wasm backend (single-threaded in Node: tfjs enables wasm threads only where it can start web workers). */
export async function loadUpscalerJs(): Promise<UpscalerJs> {
  const tf = require('@tensorflow/tfjs') as TfModule;
  const wasm = require('@tensorflow/tfjs-backend-wasm') as typeof import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(`${path.join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist')}/`);
  if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not start');
  await tf.ready();
  registerFileRoute(tf);

  const shared = require(path.join(UPSCALER_NODE, 'shared/index.js'));
  const Upscaler = shared.getUpscaler({
    tf,
    getUpscaleOptions: require(path.join(UPSCALER_NODE, 'node/args.node.js')).getUpscaleOptions,
    loadModel: require(path.join(UPSCALER_NODE, 'node/loadModel.node.js')).loadModel,
    getImageAsTensor: require(path.join(UPSCALER_NODE, 'node/image.node.js')).getImageAsTensor,
    tensorAsBase64: require(path.join(UPSCALER_NODE, 'node/image.node.js')).tensorAsBase64,
    checkValidEnvironment: require(path.join(UPSCALER_NODE, 'node/image.node.js')).checkValidEnvironment,
  });
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threads = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  return {
    tf,
    Upscaler,
    getPatchesFromImage: shared.getPatchesFromImage,
    AbortError: shared.AbortError,
    backend: `tfjs ${tf.version.tfjs} ${tf.getBackend()} (SIMD ${simd ? 'on' : 'off'}, ${threads ? `${wasm.getThreadsCount()} threads` : '1 thread'})`,
  };
}

/** The definition the @upscalerjs/esrgan-* package gives this model, pointing at the weights in our model cache. */
export function modelDefinition(modelJson: string, scale: number, inputRange: [number, number]): UpscalerModelDefinition {
  const classes = new Set(JSON.stringify(JSON.parse(fs.readFileSync(modelJson, 'utf8')).modelTopology).match(/"class_name":"[A-Za-z0-9]+"/g) ?? []);
  const rrdn = classes.has('"class_name":"MultiplyBeta"');
  return {
    path: `file://${modelJson}`,
    scale,
    modelType: 'layers',
    inputRange,
    outputRange: inputRange,
    ...(rrdn ? { setup: (tf: TfModule) => registerRrdnLayers(tf, scale) } : {}),
  };
}

function registerRrdnLayers(tf: TfModule, scale: number): void {
  const first = (inputs: Tf.Tensor | Tf.Tensor[]): Tf.Tensor => (Array.isArray(inputs) ? inputs[0]! : inputs);
  class MultiplyBeta extends tf.layers.Layer {
    static className = 'MultiplyBeta';
    constructor() {
      super({});
    }
    override call(inputs: Tf.Tensor | Tf.Tensor[]): Tf.Tensor {
      return tf.mul(first(inputs), 0.2);
    }
  }
  class PixelShuffle extends tf.layers.Layer {
    static className = `PixelShuffle${scale}x`;
    constructor() {
      super({});
    }
    override computeOutputShape(shape: Tf.Shape): Tf.Shape {
      return [shape[0]!, shape[1]!, shape[2]!, 3];
    }
    override call(inputs: Tf.Tensor | Tf.Tensor[]): Tf.Tensor {
      return tf.depthToSpace(first(inputs) as Tf.Tensor4D, scale, 'NHWC');
    }
  }
  tf.serialization.registerClass(MultiplyBeta);
  tf.serialization.registerClass(PixelShuffle);
}

let routed = false;

/** What tfjs-node's file system IO handler does for loading: model.json and its shards from disk. */
function registerFileRoute(tf: TfModule): void {
  if (routed) return;
  routed = true;
  // tfjs asks every router and keeps the handlers that are not null; its type does not say null is allowed.
  const route = (url: string | string[]): Tf.io.IOHandler | null => {
    if (typeof url !== 'string' || !url.startsWith('file://')) return null;
    const modelJson = url.slice('file://'.length);
    return {
      load: async () => {
        const json = JSON.parse(await fs.promises.readFile(modelJson, 'utf8'));
        const manifest = json.weightsManifest as { paths: string[]; weights: Tf.io.WeightsManifestEntry[] }[];
        const shards = await Promise.all(
          manifest.flatMap((group) => group.paths.map((p) => fs.promises.readFile(path.join(path.dirname(modelJson), p)))),
        );
        const weights = Buffer.concat(shards);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          weightSpecs: manifest.flatMap((group) => group.weights),
          weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
        };
      },
    };
  };
  tf.io.registerLoadRouter(route as (url: string | string[]) => Tf.io.IOHandler);
}
