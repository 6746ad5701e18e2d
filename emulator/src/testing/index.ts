/** @pcp/emulator/testing: page builders and checked simulation for tests (here and in other packages). */
export { PageBuilder } from './build.ts';
export { simulateChecked, timingOf } from './check.ts';
