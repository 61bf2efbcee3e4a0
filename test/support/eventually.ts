// Waiting for something the product does on its own time: poll until it holds, bounded.

/**
 * Polls `probe` until it returns something other than undefined or false, and returns that; fails
 * naming `what` when `withinMs` pass first.
 */
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { withinMs = 20_000, everyMs = 25 }: { withinMs?: number; everyMs?: number } = {},
): Promise<T> {
  const giveUpAt = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > giveUpAt) throw new Error(`still waiting for ${what} after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
