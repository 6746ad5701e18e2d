/**
 * @pcp/profiler/testing: the profiler's test fixtures for other packages' harnesses — the test server
 * (a directory on named loopback origins) and the ground-truth suite of test pages it serves.
 */
export { startTestServer, type TestServer, type TestServerOptions, type OriginSpec } from '../../test-server/server.ts';
export { listSuite, startSuiteServer, SITES_DIR, type SuitePage } from '../../fidelity/suite.ts';
