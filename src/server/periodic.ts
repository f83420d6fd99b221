// A task the process runs every few seconds (the email queue, subscription renewals): runs never
// overlap, a failed run is logged and the next one still comes, and stop() waits for the run in progress.
//
// Each run gets an AbortSignal that stop() aborts: a run works one row at a time and checks the
// signal before claiming the next, so shutdown waits for the row in hand only (ARCHITECTURE.md
// § Security, "Shutdown").

export interface PeriodicTask<T> {
  /** No more runs: the one in progress finishes its current row and stops; resolves when it has. */
  stop(): Promise<void>;
  /** Runs the task now, after any run in progress (admins' "Process Queue", tests). */
  runNow(): Promise<T>;
}

export interface PeriodicTaskOptions<T> {
  intervalMs: number;
  /** One run; it stops early (between rows) once `signal` is aborted. */
  run: (signal: AbortSignal) => Promise<T>;
  onResult: (result: T) => void;
  onError: (error: unknown) => void;
}

export function startPeriodicTask<T>({ intervalMs, run, onResult, onError }: PeriodicTaskOptions<T>): PeriodicTask<T> {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const runExclusive = (): Promise<T> => {
    const next = tail.then(() => run(stopping.signal));
    tail = next.catch(() => undefined);
    return next;
  };

  const schedule = () => {
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => {
      timer = undefined;
      void runExclusive().then(onResult, onError).finally(schedule);
    }, intervalMs);
    // The task alone must not keep a process alive (scripts, tests that forget stop()).
    timer.unref();
  };
  schedule();

  return {
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await tail;
    },
    runNow: runExclusive,
  };
}
