import type { Operation } from './operation.js';
import { creativeRedesign } from './creative-redesign.js';
import { furnish } from './furnish.js';
import { smartStagingV1, smartStagingV2 } from './smart-staging.js';
import { declutter } from './declutter.js';
import { upscale, upscaleAdvanced } from './upscale.js';
import { enhancer } from './enhancer.js';

/** Every processing operation of the API, in the spec's order. */
export const OPERATIONS: readonly Operation[] = [
  creativeRedesign,
  furnish,
  smartStagingV2,
  smartStagingV1,
  declutter,
  upscale,
  upscaleAdvanced,
  enhancer,
] as unknown as readonly Operation[];

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export function findOperation(name: string): Operation | undefined {
  return byName.get(name);
}
