import { AppError } from '../../errors.js';
import { ROOM_LAYOUT_MODEL, ROOM_NETWORK_MODEL } from '../geometry/room-network.js';
import type { Detector, ImageModels } from '../image-models.js';

/** A model that was missing and what produced the result instead; listed in the job's `result.fallbacks`. */
export interface ModelFallback {
  /** What ran instead, e.g. `lanczos3`. */
  engine: string;
  /** The missing models. */
  models: string[];
  /** Why, in words. */
  reason: string;
}

/** What a model check needs: the service's ImageModels and the CLI's runtime both have it. */
type ModelProbe = Pick<ImageModels, 'isInstalled'>;

export const FALLBACK_SETTING = 'ROOMCRAFT_ALLOW_MODEL_FALLBACKS';

/** The networks we train (tools/, docs/models/), in models/ beside the code. */
const SHIPPED_WITH_THE_CODE = new Set([ROOM_NETWORK_MODEL, ROOM_LAYOUT_MODEL]);

/**
 * The one rule for missing models, so that no operation returns a lesser result as a plain success:
 * - by default a missing model is a 503 service_unavailable that names it and how to install it;
 * - where the operator allows fallbacks (ROOMCRAFT_ALLOW_MODEL_FALLBACKS=true), the operation takes its fallback and
 *   the fallback is recorded, so the job's result and the answer's X-Roomcraft-Degraded header say so;
 * - a model without a fallback (a privacy detector, the automatic declutter's main detector) is a 503 either way.
 *
 * The registry's operations get their models through one of these (see erase() in ./define.ts). Operation code asks
 * `missingForFallback(models, names, engine)` where it has a fallback and `requireModel()` where it has none; a plain
 * `isInstalled(name)` from operation code is a fallback decision too, recorded as running without that model.
 */
export class ModelPolicy implements ImageModels {
  private readonly recorded: ModelFallback[] = [];

  constructor(
    private readonly inner: ImageModels,
    private readonly options: { operation: string; allowFallbacks: boolean },
  ) {}

  /** The fallbacks taken so far, one per engine. */
  get fallbacks(): readonly ModelFallback[] {
    return this.recorded;
  }

  /**
   * The models of `names` that are missing, for the caller to run `engine` instead: none, or a 503, or (fallbacks
   * allowed) the missing ones with the fallback recorded.
   */
  async missingForFallback(names: readonly string[], engine: string): Promise<string[]> {
    const missing = await missingModels(this.inner, names);
    if (missing.length === 0) return [];
    if (!this.options.allowFallbacks) throw missingModelError(this.options.operation, missing, engine);
    const known = this.recorded.find((f) => f.engine === engine);
    const models = [...new Set([...(known?.models ?? []), ...missing])];
    const fallback = { engine, models, reason: `${plural(models)} ${models.join(', ')} ${models.length > 1 ? 'are' : 'is'} not installed` };
    if (known) Object.assign(known, fallback);
    else this.recorded.push(fallback);
    return missing;
  }

  /** A model without a fallback: its session, or a 503 whatever the setting. */
  async requireModel(name: string, needer = this.options.operation): Promise<Detector> {
    await this.requireModels([name], needer);
    return this.inner.detectorSession(name);
  }

  /** Models without a fallback: one 503 naming every one missing, whatever the setting. */
  async requireModels(names: readonly string[], needer = this.options.operation): Promise<void> {
    const missing = await missingModels(this.inner, names);
    if (missing.length > 0) throw missingModelError(needer, missing);
  }

  async isInstalled(name: string): Promise<boolean> {
    return (await this.missingForFallback([name], `${this.options.operation} without ${name}`)).length === 0;
  }

  imageSession(name: string) {
    return this.inner.imageSession(name);
  }

  detectorSession(name: string) {
    return this.inner.detectorSession(name);
  }
}

/**
 * The models of `names` that are missing, for the caller to run `engine` instead. Under the service's rule (`models`
 * is a ModelPolicy) a missing model is a 503 unless fallbacks are allowed, and a fallback taken is recorded;
 * elsewhere (benchmarks, the CLI, tests with stand-in models) the caller simply falls back.
 */
export async function missingForFallback(models: ModelProbe, names: readonly string[], engine: string): Promise<string[]> {
  if (models instanceof ModelPolicy) return models.missingForFallback(names, engine);
  return missingModels(models, names);
}

/** An installed detector, or a 503 that tells the operator what to install (never a fallback). */
export async function requireModel(models: ImageModels, name: string, needer?: string): Promise<Detector> {
  if (models instanceof ModelPolicy) return models.requireModel(name, needer);
  if ((await missingModels(models, [name])).length > 0) throw missingModelError(needer ?? 'this operation', [name]);
  return models.detectorSession(name);
}

/** Installed models without a fallback, or one 503 naming every one missing (never a fallback). */
export async function requireModels(models: ImageModels, names: readonly string[], needer?: string): Promise<void> {
  if (models instanceof ModelPolicy) return models.requireModels(names, needer);
  const missing = await missingModels(models, names);
  if (missing.length > 0) throw missingModelError(needer ?? 'this operation', missing);
}

async function missingModels(models: ModelProbe, names: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) if (!(await models.isInstalled(name))) missing.push(name);
  return missing;
}

/**
 * "upscale needs the model X, which is not installed on this server: …" with both ways out. The model directory's
 * path stays in the server's configuration; the client gets the names of the settings.
 */
export function missingModelError(needer: string, missing: readonly string[], fallback?: string): AppError {
  // Our own networks ship in the repository's models/ folder, not through the registry's install.
  const install = missing.every((name) => SHIPPED_WITH_THE_CODE.has(name))
    ? `restore ${missing.map((name) => `models/${name}.onnx`).join(', ')} from the release: ${missing.length > 1 ? 'they ship' : 'it ships'} with the code`
    : 'run "roomcraft models install" with the same ROOMCRAFT_DATA_DIR (or ROOMCRAFT_MODEL_DIR) as the service, ' +
      'or start the service with the data directory where the models are installed';
  const allow = fallback ? `, or set ${FALLBACK_SETTING}=true to accept ${fallback} instead (the answer then says so)` : '';
  return new AppError(
    'service_unavailable',
    503,
    `${needer} needs the ${plural(missing)} ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not ` +
      `installed on this server: ${install}${allow}`,
  );
}

function plural(models: readonly string[]): string {
  return models.length > 1 ? 'models' : 'model';
}
