// A call loop's wake-up when its row changes (hung up or steered by the API, the lease lost).

/** A wake-up that is remembered when nobody is waiting for it. */
export class Signal {
  private pending = false;
  private wake: (() => void) | null = null;
  /** How many times it was poked: a waiter that stopped waiting can tell whether it missed one. */
  pokes = 0;
  poke(): void {
    this.pokes++;
    this.pending = true;
    this.wake?.();
  }
  wait(): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        this.pending = false;
        resolve();
      };
    });
  }
}
