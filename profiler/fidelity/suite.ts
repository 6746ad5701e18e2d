/**
 * The ground-truth suite: the test pages under profiler/test-sites that ship an expected.json,
 * served by the test server on three origins (a, b: HTTP/1.1; c: HTTP/2 over TLS).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../test-server/server.ts';
import type { Expected } from './expected.ts';

export const SITES_DIR = fileURLToPath(new URL('../test-sites/', import.meta.url));

export interface SuitePage {
  /** Directory name, e.g. 'r01-parse-resource'. */
  name: string;
  expected: Expected;
  /** Page path on the server, e.g. '/r01-parse-resource/index.html'. */
  path: string;
}

export function listSuite(dir = SITES_DIR): SuitePage[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'expected.json')))
    .map((d) => {
      const expected = JSON.parse(readFileSync(join(dir, d.name, 'expected.json'), 'utf8')) as Expected;
      return { name: d.name, expected, path: `/${d.name}/${expected.page ?? 'index.html'}` };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function startSuiteServer(root = SITES_DIR): Promise<TestServer> {
  return startTestServer({ root, origins: [{ name: 'a' }, { name: 'b' }, { name: 'c', http2: true }] });
}

/** The page's URL on origin a. */
export function pageUrl(server: TestServer, page: SuitePage): string {
  return server.urls.a!.slice(0, -1) + page.path;
}
