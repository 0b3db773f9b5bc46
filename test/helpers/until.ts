/**
 * How long a test waits for something that must happen (a job settling, a webhook or a request arriving) before it
 * calls it a hang. Nothing the suite waits for needs this long on any machine, however slow or loaded: a test never
 * depends on how fast the machine is, only on the awaited event happening at all.
 */
export const HANG_MS = 5 * 60_000;

/**
 * A per-test limit for node's test runner (`{ timeout: TEST_TIMEOUT_MS }`) on tests that do heavy work such as loading
 * models. It is above HANG_MS, so a wait inside the test reports what it was waiting for before the runner cuts it off.
 */
export const TEST_TIMEOUT_MS = 2 * HANG_MS;

export interface UntilOptions {
  /** What is awaited, for the error; e.g. `job ${id} to leave pending`. */
  what?: string;
  /** Defaults to HANG_MS. */
  timeoutMs?: number;
}

/**
 * Polls `probe` until it returns a value other than undefined, and returns that value. Only a hang reaches the
 * deadline; then it fails naming what it waited for. A number as the second argument is the deadline in ms.
 */
export async function until<T>(probe: () => Promise<T | undefined>, options: UntilOptions | number = {}): Promise<T> {
  const { what = 'the condition', timeoutMs = HANG_MS } = typeof options === 'number' ? { timeoutMs: options } : options;
  const started = Date.now();
  // Start tight so quick events are seen quickly, then back off so a long wait does not load the machine further.
  let pause = 10;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`until: gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s (a hang: no machine is that slow)`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 200);
  }
}

/**
 * Waits for an event's promise; if it has not settled after `timeoutMs` (HANG_MS by default), fails naming `what`
 * instead of leaving the test hanging with no explanation.
 */
export async function withDeadline<T>(event: Promise<T>, what: string, timeoutMs = HANG_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s (a hang: no machine is that slow)`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([event, hang]);
  } finally {
    clearTimeout(timer);
  }
}
