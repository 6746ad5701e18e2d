export * from './kit.ts';
export { main } from './main.ts';
