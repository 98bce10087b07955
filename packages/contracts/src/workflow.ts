/**
 * The typed transition tables of the workflows (notices, applications, questions,
 * countersign): each move, the states it may leave, the state it reaches, and its verb. The api
 * moves state only as its table says (`UPDATE … WHERE status IN (from)` in the transaction that
 * writes the audit row); the web shows a move's button only where the table allows it.
 */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  /** The verb on the button and in messages. */
  readonly label: string;
}

/** Whether `move` may start from `status` in `table`. */
export function canMove<S extends string, T extends Record<string, Transition<S>>>(
  table: T,
  move: keyof T,
  status: S,
): boolean {
  return (table[move]!.from as readonly string[]).includes(status);
}
