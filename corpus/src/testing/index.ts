/** Test helpers of @pcp/corpus, imported as `@pcp/corpus/testing`. */
export { writeLegacyTestCorpus } from './legacy-corpus.ts';
