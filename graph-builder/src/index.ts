export * from './format/types.ts';
export * from './format/validate.ts';
export * from './format/io.ts';
export * from './format/legacy.ts';
export * from './legacy-corpus.ts';
