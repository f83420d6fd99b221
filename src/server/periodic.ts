// A task the process runs every few seconds (the email queue, subscription renewals): runs never
// overlap, a failed run is logged and the next one still comes, and stop() waits for the run in progress.

export interface PeriodicTask<T> {
  stop(): Promise<void>;
  /** Runs the task now, after any run in progress (admins' "Process Queue", tests). */
  runNow(): Promise<T>;
}

export interface PeriodicTaskOptions<T> {
  intervalMs: number;
  run: () => Promise<T>;
  onResult: (result: T) => void;
  onError: (error: unknown) => void;
}

export function startPeriodicTask<T>({ intervalMs, run, onResult, onError }: PeriodicTaskOptions<T>): PeriodicTask<T> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const runExclusive = (): Promise<T> => {
    const next = tail.then(run);
    tail = next.catch(() => undefined);
    return next;
  };

  const schedule = () => {
    if (stopped) return;
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
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await tail;
    },
    runNow: runExclusive,
  };
}
