/**
 * A diagnostic for multipath runs (han-wifi-lte.ts): per MPTCP connection, the data bytes each subflow took from
 * the meta socket, and why the second path got its bytes: the min-RTT scheduler picks the lowest smoothed RTT
 * with room in its window, so a second-path segment went either while the first subflow's window was full or
 * while the first path's RTT (queueing included) was the higher one. It wraps MptcpConnection.take for the
 * duration of one simulate() call and reads the subflows' private state: a tool for looking, not an interface
 * (as connection-timeline.ts).
 */
import type { Graph } from '@pcp/graph-builder';
import { simulate, type EmulatorConfig, type SimResult } from '../src/index.ts';
import { MptcpConnection } from '../src/mptcp/connection.ts';
import type { Exchange } from '../src/http/send-buffer.ts';

export interface SubflowTally {
  /** MPTCP connections that sent data, and those of them that sent some on the second path. */
  connections: number;
  usingPath2: number;
  /** Bytes first sent on each path. */
  bytes: [number, number];
  /** Second-path bytes sent while the first subflow had room in its window (its RTT was the higher). */
  path2WhileRoom: number;
}

/** The subflows' state the tally reads (MptcpConnection's private fields). */
interface MetaState {
  flows: Array<{ tcp: { hasRoom(): boolean } }>;
}
type Take = (i: number, x: Exchange, max: number) => number;

/** Simulates `graph` under `config` (with a second path) and tallies what each connection's subflows carried. */
export function subflowTally(graph: Graph, config: EmulatorConfig): { result: SimResult; tally: SubflowTally } {
  const proto = MptcpConnection.prototype as unknown as { take: Take };
  const saved = proto.take;
  const perConn = new Map<object, [number, number]>();
  let path2WhileRoom = 0;
  proto.take = function (this: MetaState, i: number, x: Exchange, max: number): number {
    const room = i === 1 && this.flows[0]!.tcp.hasRoom();
    const len = saved.call(this, i, x, max);
    let b = perConn.get(this);
    if (b === undefined) perConn.set(this, (b = [0, 0]));
    b[i === 1 ? 1 : 0] += len;
    if (room) path2WhileRoom += len;
    return len;
  };
  let result: SimResult;
  try {
    result = simulate(graph, config);
  } finally {
    proto.take = saved;
  }
  const tally: SubflowTally = { connections: perConn.size, usingPath2: 0, bytes: [0, 0], path2WhileRoom };
  for (const [a, b] of perConn.values()) {
    tally.bytes[0] += a;
    tally.bytes[1] += b;
    if (b > 0) tally.usingPath2++;
  }
  return { result, tally };
}
