export * from './format/types.ts';
export * from './format/validate.ts';
