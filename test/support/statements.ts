// Watching the statements a process sends on its own through its pipelined pool (as knex's 'query' event does for knex's).
import { nativeOf, type PipelinedPool, type Statement } from '../../pkg/db/pipeline.js';

/** Calls `seen` with each statement `pipelined.send` sends from now on; the returned function stops it. */
export function watchSent(pipelined: PipelinedPool, seen: (sql: string, bindings: readonly unknown[]) => void): () => void {
  const send = pipelined.send;
  pipelined.send = (statement: Statement) => {
    const { sql, bindings } = nativeOf(statement);
    seen(sql, bindings);
    return send.call(pipelined, statement);
  };
  return () => {
    pipelined.send = send;
  };
}
