/** Delays between tries of a write that failed: about a minute in all, enough to ride out a database failover. */
const DELAYS_MS = [100, 300, 1_000, 3_000, 10_000, 20_000, 30_000];

/**
 * Runs `write` until it succeeds or the delays run out, then throws its last error. For writes whose outcome is
 * already decided (a job's settle): a transient error is a reason to try again, never to record something else.
 */
export async function retryTransient<T>(
  write: () => Promise<T>,
  options: { onRetry?: (error: unknown, delayMs: number) => void; delaysMs?: readonly number[] } = {},
): Promise<T> {
  const delays = options.delaysMs ?? DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const delayMs = delays[attempt];
      if (delayMs === undefined) throw error;
      options.onRetry?.(error, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
