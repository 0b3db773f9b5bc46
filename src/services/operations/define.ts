import type { Static, TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../errors.js';
import { ModelPolicy } from './model-policy.js';
import type { AnyOperation, Operation, OperationParams } from './operation.js';

/** Identity helper that lets TypeScript infer each operation's parameter and acknowledgement types from its schemas. */
export function defineOperation<S extends TObject, A extends TObject>(operation: Operation<S, A>): Operation<S, A> {
  return operation;
}

/**
 * The type-erased form of an operation, for the registry's list. Parameters arrive as JSON that the route validated
 * against `params` (or that a stored job kept); they are checked against the same schema here, which is what makes
 * them the operation's own type, so no cast stands between the route and the module. The acknowledgement is
 * checked against `acknowledgementFields` (a field the module forgot to declare fails loudly, never silently dropped),
 * and `run` gets its models through the missing-model rule of ./model-policy.ts, its fallbacks added to the result.
 */
export function erase<S extends TObject, A extends TObject>(operation: Operation<S, A>): AnyOperation {
  const { name, mode, summary, params: schema, acknowledgementFields, acceptsMask } = operation;
  const typed = (params: OperationParams): Static<S> => {
    if (Value.Check(schema, params)) return params;
    const first = Value.Errors(schema, params).First();
    throw new AppError('validation_failed', 400, `the parameters of ${name} are not valid: ${first?.path ?? ''} ${first?.message ?? ''}`.trim());
  };
  const { validate, checkInput, run } = operation;
  return {
    name,
    mode,
    summary,
    params: schema,
    acknowledgementFields,
    acceptsMask,
    credits: (params, hasMask) => operation.credits(typed(params), hasMask),
    queue: (params) => operation.queue?.(typed(params)) ?? 'light',
    ...(validate ? { validate: (params, catalog) => validate.call(operation, typed(params), catalog) } : {}),
    acknowledgement(params, catalog) {
      const fields: Record<string, unknown> = operation.acknowledgement(typed(params), catalog);
      const undeclared = Object.keys(fields).filter((key) => !Object.hasOwn(acknowledgementFields.properties, key));
      if (undeclared.length > 0 || !Value.Check(acknowledgementFields, fields)) {
        const first = Value.Errors(acknowledgementFields, fields).First();
        const why = undeclared.length > 0 ? `undeclared ${undeclared.join(', ')}` : `${first?.path} ${first?.message}`;
        throw new Error(`the acknowledgement of ${name} does not match its acknowledgementFields: ${why}`);
      }
      return fields;
    },
    ...(checkInput ? { checkInput: (size, params, config) => checkInput.call(operation, size, typed(params), config) } : {}),
    ...(run
      ? {
          async run(input, context) {
            const models = new ModelPolicy(context.models, { operation: name, allowFallbacks: context.config.models.allowFallbacks });
            const output = await run.call(operation, { ...input, params: typed(input.params) }, { ...context, models });
            if (models.fallbacks.length === 0) return output;
            context.logger.warn({ fallbacks: models.fallbacks }, 'result made with a fallback for a missing model');
            return { ...output, result: { ...output.result, fallbacks: [...models.fallbacks] } };
          },
        }
      : {}),
  };
}
