#!/usr/bin/env node
// Entry point of the `pcp` CLI. Sources are TypeScript, run through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
// `pcp ... | head` closes stdout early: that is the reader's choice, not a failure.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
