import { EventEmitter } from 'node:events';

/** In-process notice that a job settled, so a waiting synchronous request wakes without polling. */
export class JobEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  settled(jobId: string): void {
    this.emitter.emit(jobId);
  }

  onceSettled(jobId: string, listener: () => void): () => void {
    this.emitter.once(jobId, listener);
    return () => this.emitter.off(jobId, listener);
  }
}
