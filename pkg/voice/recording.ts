// How long speech takes: the simulated network carries text, so this is the length of what is said.

/** Words a second of speech. */
const WORDS_PER_SEC = 2.5;

/** How long `text` takes to say, in whole seconds (at least one). */
export const spokenSeconds = (text: string): number => Math.max(1, Math.ceil(text.trim().split(/\s+/).length / WORDS_PER_SEC));
