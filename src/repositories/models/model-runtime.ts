import fs from 'node:fs/promises';
import { openDetector } from './detector-models.js';
import type { DetectorSession } from './detector-session.js';
import type { ModelRegistry } from './model-registry.js';
import type { ModelStore } from './model-store.js';
import { readTfjsLayersModel } from './tfjs-layers-files.js';
import { tfjsLayersModelToOnnx } from './tfjs-layers-to-onnx.js';
import { createImageModelSession, type ImageModelSession } from './onnx-runtime.js';
import { isTrainedModelPresent, openTrainedModel } from './trained-models.js';

/** Names the conversion in the cache; bump it whenever the converter's output changes. */
export const TFJS_LAYERS_CONVERTER_ID = 'tfjs-layers-to-onnx-v1';

/**
 * The models one worker thread has open. A session is created on first use from the store's (converted, verified)
 * files and reused for every later job of this thread. A name the registry does not know is one of our trained
 * networks (models/ in the repository, trained-models.ts): it is installed when its file is there.
 */
export class ModelRuntime {
  private readonly sessions = new Map<string, Promise<ImageModelSession>>();
  private readonly detectors = new Map<string, Promise<DetectorSession>>();

  constructor(
    private readonly store: ModelStore,
    private readonly registry: ModelRegistry,
    private readonly options: { intraOpNumThreads?: number } = {},
  ) {}

  /** Whether the model's files are installed and intact, without loading it. */
  async isInstalled(name: string): Promise<boolean> {
    if (!this.registry.has(name)) return isTrainedModelPresent(name);
    return this.store.filesOf(name).then(
      () => true,
      () => false,
    );
  }

  imageSession(name: string): Promise<ImageModelSession> {
    let session = this.sessions.get(name);
    if (!session) {
      session = this.open(name);
      // A failed load is not cached: installing the model and retrying must work without a restart.
      session.catch(() => this.sessions.delete(name));
      this.sessions.set(name, session);
    }
    return session;
  }

  /** A session over a detector (faces, vehicles, text): ONNX as installed, tfjs graphs converted once; see detector-models.ts. */
  detectorSession(name: string): Promise<DetectorSession> {
    let session = this.detectors.get(name);
    if (!session) {
      const options = this.options.intraOpNumThreads ? { intraOpNumThreads: this.options.intraOpNumThreads } : {};
      session = this.registry.has(name) ? openDetector(this.store, this.registry, name, options) : openTrainedModel(name, options);
      session.catch(() => this.detectors.delete(name));
      this.detectors.set(name, session);
    }
    return session;
  }

  /** Names of the models with an open session in this thread. */
  loaded(): string[] {
    return [...this.sessions.keys(), ...this.detectors.keys()];
  }

  async close(): Promise<void> {
    const sessions = await Promise.allSettled([...this.sessions.values(), ...this.detectors.values()]);
    this.sessions.clear();
    this.detectors.clear();
    await Promise.all(sessions.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
  }

  private async open(name: string): Promise<ImageModelSession> {
    const model = this.registry.model(name);
    if (model.format !== 'tfjs-layers') throw new Error(`model ${name} is ${model.format}; only tfjs-layers image models load here`);
    const onnxPath = await this.store.convert(name, TFJS_LAYERS_CONVERTER_ID, async (files) =>
      tfjsLayersModelToOnnx(await readTfjsLayersModel(files, { ...(model.scale ? { scale: model.scale } : {}) }), {
        modelPixelMax: model.inputRange?.[1] ?? 1,
        clampOutput: true,
      }),
    );
    return createImageModelSession(await fs.readFile(onnxPath), {
      ...(this.options.intraOpNumThreads ? { intraOpNumThreads: this.options.intraOpNumThreads } : {}),
    });
  }
}
