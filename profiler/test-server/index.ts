export * from './server.ts';
export { parseOrigin, DEFAULT_ORIGINS } from './cli.ts';
