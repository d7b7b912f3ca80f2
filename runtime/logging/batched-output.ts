/**
 * The JSON log lines' way to stdout: the lines written in one turn of the event loop leave in one
 * write (one system call) instead of one each. stdout to a file or a pipe (a container's log
 * driver) is synchronous in Node, so under load the per-line write was the log's largest cost.
 *
 * Lines are never held longer than the current turn: the batch is written from `setImmediate`, or
 * at once when it reaches `maxLength` characters, and on process exit (a crash that exits through
 * `process.exit` or an uncaught exception still writes every line). Only a hard kill (SIGKILL, an
 * abort in native code) can lose the lines of the turn it interrupts. docs/runtime.md#logging.
 */
export class BatchedOutput {
  private pending = '';
  private scheduled = false;
  private readonly flushSoon = (): void => this.flush();

  constructor(
    private readonly out: NodeJS.WritableStream,
    /** Characters (a byte each for the ASCII of JSON lines) after which the batch is written at once. */
    private readonly maxLength = 64 * 1024,
  ) {}

  /** Keeps the line for this turn's write; always true (the batch, not the caller, meets back-pressure). */
  write(chunk: string | Uint8Array): boolean {
    this.pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    if (this.pending.length >= this.maxLength) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon);
    }
    return true;
  }

  /** Writes what is pending now (the exit hook). */
  flush(): void {
    this.scheduled = false;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }
}

let stdout: BatchedOutput | null = null;

/** The process's one batched stdout (every server of the process shares it), flushed on exit. */
export function batchedStdout(): BatchedOutput {
  if (stdout === null) {
    const output = new BatchedOutput(process.stdout);
    process.on('exit', () => output.flush());
    stdout = output;
  }
  return stdout;
}
