import type { FurnitureRenderer } from './furniture-renderer.js';

/** What LockedRenderer needs of a mutex (SharedMutex across worker threads). */
export interface RenderMutex {
  lock(signal?: AbortSignal): Promise<() => void>;
}

/** A renderer that renders one scene at a time: each render uses every core, so renders queue rather than share. */
export class LockedRenderer implements FurnitureRenderer {
  constructor(
    private readonly inner: FurnitureRenderer,
    private readonly mutex: RenderMutex,
  ) {}

  available(): ReturnType<FurnitureRenderer['available']> {
    return this.inner.available();
  }

  async render(...args: Parameters<FurnitureRenderer['render']>): ReturnType<FurnitureRenderer['render']> {
    const release = await this.mutex.lock(args[1].signal);
    try {
      return await this.inner.render(...args);
    } finally {
      release();
    }
  }
}
