/** A stream the progress is written to: a terminal gets a bar redrawn in place, anything else a line now and then. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 30;
/** Without a terminal: a line at each new quarter, and at least this often while nothing moves. */
const QUIET_LINE_MS = 30_000;

/**
 * The progress of one job on stderr. On a terminal: `upscale  [█████████░░░░░░░░]  45%  0:12`, redrawn on every
 * update. Elsewhere (a log file, CI): `upscale: 25% (0:12)` when the job passes 0, 25, 50 and 75 %, and every 30 s.
 */
export class ProgressBar {
  private readonly started: number;
  private lastLine = -Infinity;
  private lastQuarter = -1;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  update(fraction: number): void {
    const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    const percent = Math.floor(clamped * 100);
    if (this.stream.isTTY) {
      // The line must fit the terminal, or each redraw would start a new line.
      const width = Math.max(5, Math.min(BAR_WIDTH, (this.stream.columns ?? 80) - this.label.length - 18));
      const filled = Math.round(clamped * width);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      this.stream.write(`\r\x1b[2K${this.label}  [${bar}] ${String(percent).padStart(3)}%  ${this.elapsed()}`);
      this.drawn = true;
      return;
    }
    const quarter = Math.min(3, Math.floor(clamped * 4));
    const now = this.now();
    if (quarter > this.lastQuarter || now - this.lastLine >= QUIET_LINE_MS) {
      this.stream.write(`${this.label}: ${percent}% (${this.elapsed()})\n`);
      this.lastQuarter = Math.max(this.lastQuarter, quarter);
      this.lastLine = now;
    }
  }

  /** Ends the bar with a last line, e.g. `done` or `failed`. */
  finish(outcome: string): void {
    if (this.stream.isTTY && this.drawn) this.stream.write(`\r\x1b[2K`);
    this.stream.write(`${this.label}: ${outcome} in ${this.elapsed()}\n`);
  }

  private elapsed(): string {
    const seconds = Math.floor((this.now() - this.started) / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }
}
