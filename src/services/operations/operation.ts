import type { TObject, Static } from '@sinclair/typebox';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { Catalog } from '../../catalog/catalog.js';
import type { FieldError } from '../../errors.js';
import type { RawImage } from '../../vision/raw-image.js';
import type { ImageModels } from '../image-models.js';

/**
 * One processing operation of the API. The worker, the routes' plumbing and the job store only ever see this
 * interface; adding an operation is adding one module and registering it in ./registry.ts.
 */
export interface Operation<S extends TObject = TObject> {
  /** Stable internal name, also the last path segment: POST /v1/<name>. */
  name: string;
  /** The spec's `mode` value for acknowledgements and jobs. */
  mode: string;
  summary: string;
  /** Operation parameters besides `url` and `webhook` (those are common to every operation). */
  params: S;
  /** Whether the request may carry a `mask` URL. */
  acceptsMask: boolean;
  credits(params: Static<S>, hasMask: boolean): number;
  /** Checks that depend on data rather than on the schema (catalog ids, exclusive fields). */
  validate?(params: Static<S>, catalog: Catalog): FieldError[];
  /** Extra fields of the pending acknowledgement, as the spec lists them per endpoint. */
  acknowledgement(params: Static<S>, catalog: Catalog): Record<string, string | number>;
  /** Refuses up front (before a job exists) what the operation knows it cannot do with an image of this size. */
  checkInput?(size: { width: number; height: number }, params: Static<S>, config: Config): void;
  /** Absent while the operation is not built: the API answers 501 operation_unavailable. */
  run?(input: OperationInput<Static<S>>, context: OperationContext): Promise<OperationOutput>;
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
  /** The models of the registry, opened once per worker thread. */
  models: ImageModels;
}


export interface OperationOutput {
  image: RawImage;
  /** Metadata recorded on the job and shown by get-job under `result` (engine used, what was removed, ...). */
  result?: Record<string, unknown>;
}
