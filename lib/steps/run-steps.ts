/**
 * Long builds written as generators of steps: each `yield` marks a point where the work may pause. The same build
 * runs at once (`runSteps`) or with the event loop let run at every pause (`runStepsLettingOthersRun`), so a
 * server answers other requests while it builds.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to their end at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Lets the event loop run what waits (other requests): `setImmediate` where the runtime has it, else a timeout. */
export const letOthersRun = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });

/** Runs `steps` to their end, letting the event loop run at each pause. */
export async function runStepsLettingOthersRun<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await letOthersRun();
  }
}
