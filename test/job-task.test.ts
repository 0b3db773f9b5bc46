import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../src/errors.js';
import { jobTask, TASK_PARAM_SCHEMAS } from '../src/jobs/task.js';
import { createLogger } from '../src/logger.js';
import { OPERATIONS } from '../src/services/operations/registry.js';

describe('the worker task', () => {
  it('is typed by exactly the registry operations, with their own parameter schemas', () => {
    assert.deepEqual(Object.keys(TASK_PARAM_SCHEMAS).sort(), OPERATIONS.map((o) => o.name).sort());
    for (const operation of OPERATIONS) {
      assert.equal(TASK_PARAM_SCHEMAS[operation.name as keyof typeof TASK_PARAM_SCHEMAS], operation.params, operation.name);
    }
  });

  it('is made from a stored job, without the configuration', () => {
    const task = jobTask('upscale', { url: 'https://example.com/a.jpg', mask: 'https://example.com/m.png', params: { scale: 3 } });
    assert.deepEqual(task, { operation: 'upscale', url: 'https://example.com/a.jpg', maskUrl: 'https://example.com/m.png', params: { scale: 3 } });
    assert.deepEqual(jobTask('declutter', { url: 'data:,', params: {} }), { operation: 'declutter', url: 'data:,', params: {} });
  });

  it('refuses a job of an operation this server does not know', () => {
    assert.throws(
      () => jobTask('toString', { url: 'data:,', params: {} }),
      (error: unknown) => error instanceof AppError && error.code === 'operation_unavailable',
    );
  });
});

describe('createLogger (main and worker threads)', () => {
  const capture = (logLevel: 'info' | 'warn') => {
    const lines: Record<string, unknown>[] = [];
    const destination = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
    return { lines, logger: createLogger({ logLevel }, { name: 'worker', destination }) };
  };

  it('honours the configured level', () => {
    const { lines, logger } = capture('warn');
    logger.info('dropped');
    logger.warn('kept');
    assert.deepEqual(lines.map((l) => [l.msg, l.name]), [['kept', 'worker']]);
  });

  it('redacts credentials', () => {
    const { lines, logger } = capture('info');
    logger.child({ operation: 'upscale' }).info({ secret: 's', req: { headers: { authorization: 'Bearer k' } }, user: { webhookSecret: 'w' } }, 'line');
    assert.equal(lines[0]!.secret, '[redacted]');
    assert.deepEqual(lines[0]!.req, { headers: { authorization: '[redacted]' } });
    assert.deepEqual(lines[0]!.user, { webhookSecret: '[redacted]' });
  });
});
