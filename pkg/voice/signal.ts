// A call loop's wake-up when its row changes (hung up or steered by the API, the lease lost).

/**
 * Announced changes to a row not yet covered by a reading of it. A poke stays pending until the
 * loop reads the row (`take`), so a waiter that lost its race leaves no poke unseen.
 */
export class Signal {
  private pending = false;
  /** Shared by every waiter until the next poke: an abandoned wait holds nothing. */
  private waiting: { promise: Promise<void>; release: () => void } | null = null;

  poke(): void {
    this.pending = true;
    this.waiting?.release();
    this.waiting = null;
  }

  /** Whether a change was announced since the row was last read. */
  get poked(): boolean {
    return this.pending;
  }

  /** Settles once a change is announced (at once if one is pending); leaves it pending. */
  wait(): Promise<void> {
    if (this.pending) return Promise.resolve();
    if (!this.waiting) {
      let release = () => {};
      const promise = new Promise<void>((resolve) => (release = resolve));
      this.waiting = { promise, release };
    }
    return this.waiting.promise;
  }

  /** The row is about to be read: what was announced so far is covered by that reading. */
  take(): void {
    this.pending = false;
  }
}
