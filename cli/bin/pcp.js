#!/usr/bin/env node
// Entry point of the `pcp` CLI. Sources are TypeScript, run through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
