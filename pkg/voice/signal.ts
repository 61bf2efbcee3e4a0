// A call loop's wake-up when its row changes (hung up or steered by the API, the lease lost).

/**
 * Announced changes to a row not yet covered by a reading of it. A change stays unread until the
 * loop reads the row (`markRead`), so a waiter that lost its race leaves no change unseen.
 */
export class Signal {
  private pending = false;
  /** Shared by every waiter until the next change: an abandoned wait holds nothing. */
  private waiting: { promise: Promise<void>; release: () => void } | null = null;

  /** A change of the row was announced. */
  noteChange(): void {
    this.pending = true;
    this.waiting?.release();
    this.waiting = null;
  }

  /** Whether a change was announced since the row was last read. */
  get hasUnreadChange(): boolean {
    return this.pending;
  }

  /** Settles once a change is announced (at once if one is unread); leaves it unread. */
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
  markRead(): void {
    this.pending = false;
  }
}
