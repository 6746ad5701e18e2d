import { test } from 'node:test';
import assert from 'node:assert/strict';
import { legacyProcessModel } from './process-model.ts';

test('a site from a legacy graph (imported or built from a legacy log) replays without site isolation; any other, or an unrecorded kind, with Chromium\'s own', () => {
  assert.equal(legacyProcessModel({ sourceKind: 'legacy-graph' }), true);
  assert.equal(legacyProcessModel({ sourceKind: 'legacy-log' }), true);
  assert.equal(legacyProcessModel({ sourceKind: 'chrome-trace' }), false);
  assert.equal(legacyProcessModel({ sourceKind: 'synthetic' }), false);
  assert.equal(legacyProcessModel({}), false);
});
