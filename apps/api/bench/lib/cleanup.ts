/**
 * Everything a benchmark creates (temp dirs, databases, child processes) registers its undo
 * here; run.ts calls runCleanup() at the end, on failure and on Ctrl-C, so nothing is left behind.
 */
type Undo = () => void | Promise<void>;

const undos: { label: string; fn: Undo }[] = [];

/** Registers an undo; returns a function that runs it now (once) and forgets it. */
export function onCleanup(label: string, fn: Undo): () => Promise<void> {
  const entry = { label, fn };
  undos.push(entry);
  return async () => {
    const i = undos.indexOf(entry);
    if (i < 0) return;
    undos.splice(i, 1);
    await fn();
  };
}

/** Runs the pending undos, newest first; reports but survives failures. */
export async function runCleanup(): Promise<void> {
  while (undos.length) {
    const { label, fn } = undos.pop()!;
    try {
      await fn();
    } catch (err) {
      console.error(`cleanup failed (${label}):`, err);
    }
  }
}
