import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asUsageError, CliError, UsageError } from './kit.ts';

class BadInput extends Error {}

test("asUsageError: f's value; a bad-input error of the class given as a UsageError with its message; any other as it is", () => {
  assert.equal(asUsageError(BadInput, () => 3), 3);
  assert.throws(() => asUsageError(BadInput, () => { throw new BadInput('--x expects a or b'); }), (e: Error) => e instanceof UsageError && e.message === '--x expects a or b');
  assert.throws(() => asUsageError(BadInput, () => { throw new CliError('no such file'); }), (e: Error) => e instanceof CliError && !(e instanceof UsageError));
});
