import type { TObject, Static } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { FieldError } from '../../errors.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { ImageModels } from '../image-models.js';
import type { JobQueueName } from '../../repositories/database/schema.js';
import type { FurnitureRenderer } from '../staging/furniture-renderer.js';

/**
 * One processing operation of the API, typed by its own schemas: `S` for its parameters, `A` for the extra fields of
 * its pending acknowledgement. The routes, the worker and the status page see the type-erased form (AnyOperation,
 * what ./registry.ts lists); adding an operation is adding one module and registering it there.
 */
export interface Operation<S extends TObject = TObject, A extends TObject = TObject> {
  /** Stable internal name, also the last path segment: POST /v1/<name>. */
  name: string;
  /** The spec's `mode` value for acknowledgements and jobs. */
  mode: string;
  summary: string;
  /** Operation parameters besides `url` and `webhook` (those are common to every operation). */
  params: S;
  /**
   * The extra fields of the pending acknowledgement, as the spec lists them per endpoint (besides `status`, `id` and
   * `mode`). The route's response schema is built from it, so what `acknowledgement()` returns is what the client gets.
   */
  acknowledgementFields: A;
  /** Whether the request may carry a `mask` URL. */
  acceptsMask: boolean;
  credits(params: Static<S>, hasMask: boolean): number;
  /**
   * The queue its jobs run from when workers are spread over machines: `heavy` for renders and the largest upscales,
   * which an operator may give big machines of their own; `light` when absent.
   */
  queue?(params: Static<S>): JobQueueName;
  /** Checks that depend on data rather than on the schema (catalog ids, exclusive fields). */
  validate?(params: Static<S>, catalog: Catalog): FieldError[];
  /** The values of `acknowledgementFields` for one request. */
  acknowledgement(params: Static<S>, catalog: Catalog): Static<A>;
  /** Refuses up front (before a job exists) what the operation knows it cannot do with an image of this size. */
  checkInput?(size: { width: number; height: number }, params: Static<S>, config: Config): void;
  /**
   * Absent while the operation is not built: the API answers 501 operation_unavailable. A model it needs that is
   * missing is a 503 unless the operator allows fallbacks (see ./model-policy.ts): ask `context.models`.
   */
  run?(input: OperationInput<Static<S>>, context: OperationContext): Promise<OperationOutput>;
}

/** The parameters of a request as JSON, validated against the operation's `params` by the route. */
export type OperationParams = Record<string, unknown>;

/**
 * An operation with its parameter types erased, for lists of different operations: its methods take the JSON the
 * route validated and check it against the operation's own schema before the typed method sees it (see erase()).
 */
export interface AnyOperation {
  readonly name: string;
  readonly mode: string;
  readonly summary: string;
  readonly params: TObject;
  readonly acknowledgementFields: TObject;
  readonly acceptsMask: boolean;
  credits(params: OperationParams, hasMask: boolean): number;
  queue(params: OperationParams): JobQueueName;
  validate?(params: OperationParams, catalog: Catalog): FieldError[];
  acknowledgement(params: OperationParams, catalog: Catalog): Record<string, unknown>;
  checkInput?(size: { width: number; height: number }, params: OperationParams, config: Config): void;
  run?(input: OperationInput<OperationParams>, context: OperationContext): Promise<OperationOutput>;
}

export interface OperationInput<P> {
  image: RawImage;
  /** Single-channel mask with the image's dimensions, when the request carried one. */
  mask?: RawImage;
  params: P;
}

export interface OperationContext {
  /** Reports progress as a fraction in [0, 1]. */
  progress(fraction: number): void;
  signal: AbortSignal;
  logger: Logger;
  config: Config;
  /**
   * The models of the registry, opened once per worker thread. Through the registry's operations this is a
   * ModelPolicy: asking whether a model is installed is where a missing one becomes a 503 or a recorded fallback.
   */
  models: ImageModels;
  /** The 3D renderer of the staging operations (Blender), one render at a time per process. */
  renderer: FurnitureRenderer;
}

export interface OperationOutput {
  image: RawImage;
  /**
   * Single-channel, image-sized: 255 where the result may differ from the input. Stored beside the output and linked
   * from the job's `result.changeMask`.
   */
  changeMask?: RawImage;
  /** Metadata recorded on the job and shown by get-job under `result` (engine used, what was removed, ...). */
  result?: Record<string, unknown>;
}
