import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import bundled from '../../catalog/models.json' with { type: 'json' };
import { assertLicenceAllowed } from './licence-policy.js';

/** A file inside an npm tarball: under `package/`, without empty, `.` or `..` segments, not a directory. */
const TarballPath = Type.String({ pattern: '^(?!.*//)(?!.*/\\.{1,2}(/|$))(?!.*/$)package/[A-Za-z0-9@._+/-]+$' });

const ModelEntrySchema = Type.Object(
  {
    /** Our id, used by operations, the CLI and status.json. */
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' }),
    /** The npm package that carries the weights; the only way pretrained weights reach us. */
    package: Type.String({ pattern: '^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$' }),
    /** An exact version: the integrity below pins one tarball. */
    version: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' }),
    /** `dist.integrity` as the registry publishes it (`npm view PKG@VER dist.integrity`). */
    integrity: Type.String({ pattern: '^sha512-[A-Za-z0-9+/]{86}==$' }),
    /** SPDX expression; must match the tarball's package.json. */
    licence: Type.String({ minLength: 1 }),
    /**
     * `tflite-packed`: a TensorFlow Lite model stored inside the first file at `packed` (an Emscripten packed-assets
     * .data file of a MediaPipe solution package, whose loader .js lists each asset's byte range).
     */
    format: Type.Union([
      Type.Literal('tfjs-layers'),
      Type.Literal('tfjs-graph'),
      Type.Literal('onnx'),
      Type.Literal('tflite'),
      Type.Literal('tflite-packed'),
    ]),
    /** For `tflite-packed` only: the model's bytes within the first file. */
    packed: Type.Optional(Type.Object({ offset: Type.Integer({ minimum: 0 }), length: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
    /** Upscaling factor, for super-resolution models. */
    scale: Type.Optional(Type.Integer({ minimum: 1 })),
    /** The range of the pixel values the model takes and returns. */
    inputRange: Type.Optional(Type.Tuple([Type.Number(), Type.Number()])),
    description: Type.String({ minLength: 1 }),
    /** The model's files in the tarball; the first is the one a loader opens (model.json, the .onnx file). */
    files: Type.Array(TarballPath, { minItems: 1 }),
    /** Reference input/output pairs shipped by the package, for tests and benchmarks of our inference. */
    samples: Type.Array(Type.Object({ input: TarballPath, output: TarballPath }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const RegistrySchema = Type.Object({ models: Type.Array(ModelEntrySchema) }, { additionalProperties: false });

export type ModelEntry = Static<typeof ModelEntrySchema>;

/** One tarball and everything the registry wants from it. */
export interface ModelPackage {
  package: string;
  version: string;
  integrity: string;
  licence: string;
  /** Every file of every model of this package, samples included, each once. */
  files: string[];
  models: ModelEntry[];
}

/** The validated registry; built once, then read-only. */
export class ModelRegistry {
  readonly models: readonly ModelEntry[];
  readonly packages: readonly ModelPackage[];
  private readonly byName: ReadonlyMap<string, ModelEntry>;

  private constructor(models: ModelEntry[]) {
    this.models = models;
    this.byName = new Map(models.map((m) => [m.name, m]));
    this.packages = groupByPackage(models);
  }

  /** Validates `data` (the bundled models.json unless given) and refuses GPL/AGPL models. */
  static load(data: unknown = bundled): ModelRegistry {
    const errors = [...Value.Errors(RegistrySchema, data)];
    if (errors.length > 0) {
      throw new Error(`invalid model registry: ${errors.slice(0, 5).map((e) => `${e.path} ${e.message}`).join('; ')}`);
    }
    const { models } = data as Static<typeof RegistrySchema>;
    const names = new Set<string>();
    for (const model of models) {
      if (names.has(model.name)) throw new Error(`invalid model registry: model "${model.name}" is listed twice`);
      names.add(model.name);
      if ((model.format === 'tflite-packed') !== (model.packed !== undefined)) {
        throw new Error(`invalid model registry: model "${model.name}": \`packed\` goes with the format tflite-packed, and only with it`);
      }
      assertLicenceAllowed(model.licence, `model "${model.name}"`);
    }
    return new ModelRegistry(models);
  }

  /** Whether `name` is one of the registry's (npm-packaged) models. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  model(name: string): ModelEntry {
    const model = this.byName.get(name);
    if (!model) throw new Error(`unknown model "${name}"`);
    return model;
  }

  packageOf(model: ModelEntry): ModelPackage {
    // groupByPackage put every model in exactly one package.
    return this.packages.find((p) => p.models.includes(model))!;
  }
}

export function packageSpec(pkg: Pick<ModelPackage, 'package' | 'version'>): string {
  return `${pkg.package}@${pkg.version}`;
}

function groupByPackage(models: ModelEntry[]): ModelPackage[] {
  const packages = new Map<string, ModelPackage>();
  for (const model of models) {
    const spec = packageSpec(model);
    const existing = packages.get(spec);
    if (!existing) {
      packages.set(spec, { ...pick(model), files: [], models: [model] });
    } else {
      // The tarball is one file with one checksum and one licence; entries that disagree are a typo.
      if (existing.integrity !== model.integrity || existing.licence !== model.licence) {
        throw new Error(`invalid model registry: models of ${spec} disagree on integrity or licence ("${model.name}")`);
      }
      existing.models.push(model);
    }
  }
  for (const pkg of packages.values()) {
    const files = pkg.models.flatMap((m) => [...m.files, ...m.samples.flatMap((s) => [s.input, s.output])]);
    pkg.files = [...new Set(files)];
  }
  return [...packages.values()];
}

function pick(model: ModelEntry): Pick<ModelPackage, 'package' | 'version' | 'integrity' | 'licence'> {
  return { package: model.package, version: model.version, integrity: model.integrity, licence: model.licence };
}
