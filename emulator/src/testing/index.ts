/** @pcp/emulator/testing: checked simulation for tests (graphs come from @pcp/graph-builder/testing's PageBuilder). */
export { simulateChecked, timingOf } from './check.ts';
