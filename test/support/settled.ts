// Whether a promise has settled by now, for code that settles promises from timers or pokes.

/** Whether `promise` has settled once the callbacks pending now have run (one turn of the event loop). */
export async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
