/**
 * The time of each step of an operation, for its job's result: `lap(name)` ends the step that began at the last lap
 * (or at the start) and checks the abort signal between steps; `report()` gives each step's milliseconds and the total.
 */
export function stepTimer(signal?: AbortSignal) {
  const started = performance.now();
  const milliseconds: Record<string, number> = {};
  let clock = started;
  return {
    lap(name: string): void {
      const now = performance.now();
      milliseconds[name] = Math.round(now - clock);
      clock = now;
      signal?.throwIfAborted();
    },
    report(): Record<string, number> {
      return { ...milliseconds, total: Math.round(performance.now() - started) };
    },
  };
}
