/** Event kinds of the simulator's one event queue (payload conventions beside each). */
export const EV_CONN_ESTABLISHED = 1; // a: HttpConnection
export const EV_REQUEST_AT_SERVER = 2; // a: Exchange
export const EV_RESPONSE_READY = 3; // a: Exchange
export const EV_SEGMENT_ARRIVES = 4; // a: Segment (at the client)
export const EV_ACK_ARRIVES = 5; // a: Segment (at the server)
export const EV_RTO = 6; // a: TcpConnection, b: generation
export const EV_COMPUTE_DONE = 7; // b: node
export const EV_TIMER_FIRES = 8; // b: node
export const EV_DNS_DONE = 9; // a: HostPool
export const EV_NAV_COMMIT = 10; // the main document's navigation commits: its body reaches the renderer
export const EV_MPTCP = 11; // a: MptcpConnection, b: MPTCP_KICK (the scheduler chose another subflow) or MPTCP_JOIN (the second subflow is up)
