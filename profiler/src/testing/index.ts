/** What other packages' tests and benchmarks may use of the profiler's: the multi-origin loopback test server, the process tree. */
export { startTestServer, type TestServer } from '../../test-server/index.ts';
export * from './proc-tree.ts';
