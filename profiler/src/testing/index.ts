/**
 * @pcp/profiler/testing: the profiler's real test servers and page suite, for other packages' tests,
 * benches and accuracy scripts (never for library code).
 */
export * from '../../test-server/index.ts';
export { makeSelfSignedCert, type SelfSignedCert } from '../../test-server/cert.ts';
export { listSuite, startSuiteServer, pageUrl, SITES_DIR, type SuitePage } from '../../fidelity/suite.ts';
export { descendants, processesNaming, running, waitFor } from './proc-tree.ts';
export { holdRefusedUrl, type RefusedUrl } from './refused.ts';
