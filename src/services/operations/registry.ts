import type { AnyOperation } from './operation.js';
import { erase } from './define.js';
import { creativeRedesign } from './creative-redesign.js';
import { redesign } from './redesign.js';
import { refresh } from './refresh.js';
import { furnish } from './furnish.js';
import { smartStagingV1, smartStagingV2 } from './smart-staging.js';
import { declutter } from './declutter.js';
import { upscale, upscaleAdvanced } from './upscale.js';
import { enhancer } from './enhancer.js';
import { sunshine } from './sunshine.js';

/**
 * Every processing operation of the API, in the spec's order (the public twin's redesign and refresh, extensions,
 * beside creative-redesign), in the form the routes, the worker and the status page use.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  erase(creativeRedesign),
  erase(redesign),
  erase(refresh),
  erase(furnish),
  erase(smartStagingV2),
  erase(smartStagingV1),
  erase(declutter),
  erase(upscale),
  erase(upscaleAdvanced),
  erase(enhancer),
  erase(sunshine),
];

const byName = new Map(OPERATIONS.map((operation) => [operation.name, operation]));

export function findOperation(name: string): AnyOperation | undefined {
  return byName.get(name);
}
