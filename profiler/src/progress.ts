/**
 * A progress bar on stderr for batch work. Redraws in place on a TTY; elsewhere prints a line
 * every 10% so CI logs stay short.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private lastDecile = -1;
  private readonly started = Date.now();
  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  tick(ok = true, item = ''): void {
    this.done++;
    if (!ok) this.failed++;
    this.draw(item);
  }

  private draw(item: string): void {
    const frac = this.total === 0 ? 1 : this.done / this.total;
    const secs = (Date.now() - this.started) / 1000;
    const eta = this.done > 0 ? (secs / this.done) * (this.total - this.done) : 0;
    const fails = this.failed ? `, ${this.failed} failed` : '';
    if (this.stream.isTTY) {
      const width = 24;
      const filled = Math.round(frac * width);
      const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
      const line = `${this.label} [${bar}] ${this.done}/${this.total}${fails} ${secs.toFixed(0)}s eta ${eta.toFixed(0)}s ${item}`;
      this.stream.write(`\r${line.slice(0, (this.stream.columns ?? 100) - 1).padEnd((this.stream.columns ?? 100) - 1)}`);
      if (this.done === this.total) this.stream.write('\n');
    } else {
      const decile = Math.floor(frac * 10);
      if (decile !== this.lastDecile || this.done === this.total) {
        this.lastDecile = decile;
        this.stream.write(`${this.label}: ${this.done}/${this.total}${fails} (${secs.toFixed(1)}s)\n`);
      }
    }
  }
}
