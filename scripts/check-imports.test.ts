import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { checkImports, isLibraryFile, specifiersOf, violationsOf, type PackageSurface } from './check-imports.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written with a variable quote so this file's own scan does not read the samples as imports. */
const q = "'";

const PACKAGES: PackageSurface[] = [
  { dir: 'cli', name: '@pcp/cli', exports: ['.', './testing'] },
  { dir: 'graph-builder', name: '@pcp/graph-builder', exports: ['.', './types'] },
  { dir: 'profiler', name: '@pcp/profiler', exports: ['.', './bundle', './testing'] },
  { dir: 'scripts', name: undefined, exports: [] },
];

test('every import in the repository goes through a public surface', () => {
  const found = checkImports(ROOT);
  assert.deepEqual(found.map((v) => `${v.file}: ${v.specifier}: ${v.reason}`), []);
});

test('specifiers: static, re-exported, side-effect and dynamic imports', () => {
  const src = [
    `import { a } from ${q}@pcp/graph-builder${q};`,
    `import type { B } from ${q}./b.ts${q};`,
    `export * from ${q}../c.ts${q};`,
    `import ${q}./side.ts${q};`,
    `const { d } = await import(${q}@pcp/profiler/testing${q});`,
    `type E = import(${q}@pcp/emulator/sweep${q}).SweepJob;`,
  ].join('\n');
  assert.deepEqual(specifiersOf(src), ['@pcp/graph-builder', './b.ts', '../c.ts', './side.ts', '@pcp/profiler/testing', '@pcp/emulator/sweep']);
});

test('a deep import, a cross-package relative path and a library depending on the CLI or tests are reported', () => {
  const reasons = (path: string, spec: string): string[] => violationsOf(path, [spec], PACKAGES).map((v) => v.reason);
  assert.match(reasons('cli/src/commands/x.ts', '@pcp/graph-builder/format/io.ts')[0]!, /does not export '\.\/format\/io\.ts'/);
  assert.match(reasons('graph-builder/scripts/x.ts', '../../cli/src/kit.ts')[0]!, /relative import into cli\//);
  assert.match(reasons('graph-builder/src/x.ts', '@pcp/cli')[0]!, /must not depend on the CLI/);
  assert.match(reasons('graph-builder/src/x.ts', '@pcp/profiler/testing')[0]!, /must not depend/);
  assert.match(reasons('cli/src/x.ts', '@pcp/nope')[0]!, /no workspace is named @pcp\/nope/);
});

test('public names, relative paths inside a package and tests using testing subpaths pass', () => {
  assert.deepEqual(violationsOf('cli/src/commands/x.ts', ['@pcp/graph-builder', '@pcp/profiler/bundle', '../kit.ts', 'node:fs', 'd3'], PACKAGES), []);
  assert.deepEqual(violationsOf('graph-builder/bench/x.ts', ['@pcp/profiler/testing', '../src/index.ts'], PACKAGES), []);
  assert.deepEqual(violationsOf('graph-builder/src/x.test.ts', ['@pcp/cli/testing'], PACKAGES), []);
});

test('library files: src/ modules, not tests and not testing helpers', () => {
  assert.equal(isLibraryFile('emulator/src/simulator.ts'), true);
  assert.equal(isLibraryFile('emulator/src/simulator.test.ts'), false);
  assert.equal(isLibraryFile('emulator/src/testing/check.ts'), false);
  assert.equal(isLibraryFile('replay/src/testing.ts'), false);
  assert.equal(isLibraryFile('emulator/scripts/corpus.ts'), false);
});
