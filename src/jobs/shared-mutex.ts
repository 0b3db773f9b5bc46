/**
 * A mutex shared by the worker threads of one process, in shared memory: renders use every core, so a second render
 * beside the first would only make both slower (and double the memory). Waiting does not block the thread's event
 * loop (Atomics.waitAsync).
 */
export class SharedMutex {
  private readonly cell: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  async lock(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      if (Atomics.compareExchange(this.cell, 0, 0, 1) === 0) {
        let released = false;
        return () => {
          if (released) return;
          released = true;
          Atomics.store(this.cell, 0, 0);
          Atomics.notify(this.cell, 0, 1);
        };
      }
      // Wake on release; the timeout only re-checks the abort signal.
      const wait = (Atomics as unknown as AtomicsWithWaitAsync).waitAsync(this.cell, 0, 1, 1000);
      if (wait.async) await wait.value;
    }
  }
}

/** Node has had Atomics.waitAsync since 16; TypeScript's ES2022 library does not declare it. */
interface AtomicsWithWaitAsync {
  waitAsync(cell: Int32Array, index: number, value: number, timeoutMs: number): { async: false; value: string } | { async: true; value: Promise<string> };
}
