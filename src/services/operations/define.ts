import type { TObject } from '@sinclair/typebox';
import type { Operation } from './operation.js';

/** Identity helper that lets TypeScript infer each operation's parameter type from its schema. */
export function defineOperation<S extends TObject>(operation: Operation<S>): Operation<S> {
  return operation;
}
