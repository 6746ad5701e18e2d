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
export const EV_DELACK = 11; // a: TcpConnection, b: generation (the client's delayed-ACK timer)
export const EV_MPTCP = 12; // a: MptcpConnection, b: MPTCP_KICK (the scheduler chose another subflow) or MPTCP_JOIN (the second subflow is up)
export const EV_REQUEST_RELEASED = 13; // b: resource node; its browser-side request delay has passed: it reaches the connection pool
export const EV_RENDERER_DONE = 14; // b: resource node; the renderer learns its response is complete
export const EV_FRAME_COMMIT = 15; // b: a frame's document resource node; the frame's navigation commits: its parser may read the body
export const EV_RESPONSE_MORE = 16; // a: Exchange, b: step of its server's pacing; the server produced more of a paced body
export const EV_LINK = 17; // a: BridgeLink, b: a packet enters it (0) or one of its watchdogs fires (1)
