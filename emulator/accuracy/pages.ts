/**
 * The pages the accuracy harnesses load: the example site (served as scripts/demo.sh serves it) and the
 * ground-truth pages of profiler/test-sites (served as fidelity:rules serves them), each on the test
 * server's loopback origins. One list and one way of serving them for accuracy:identity and
 * accuracy:emulator.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestServer } from '@pcp/profiler/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface PageSpec {
  name: string;
  /** Relative to the server's origin a. */
  path: string;
  server: 'example' | 'suite';
}

/** Every page, or those named in `only` (an empty result is the caller's error to report). */
export async function accuracyPages(only?: readonly string[]): Promise<PageSpec[]> {
  const { listSuite } = await import('@pcp/profiler/testing');
  return [
    { name: 'example-site', path: 'index.html', server: 'example' as const },
    ...listSuite().map((p) => ({ name: p.name, path: p.path.slice(1), server: 'suite' as const })),
  ].filter((p) => !only || only.includes(p.name));
}

export interface PageServers {
  /** The page's URL and the Chromium host rules that reach its server. */
  target(page: PageSpec): { url: string; hostResolverRules: string };
  close(): Promise<void>;
}

/**
 * Starts the servers the pages need (the example site's, the suite's) on loopback. `tls`: every
 * origin over TLS (HTTP/1.1, or HTTP/2 where the suite offers it), so that a replay can serve each
 * origin over either protocol (Chromium has no cleartext HTTP/2).
 */
export async function startPageServers(pages: readonly PageSpec[], opts: { tls?: boolean } = {}): Promise<PageServers> {
  const { startTestServer, startSuiteServer, SITES_DIR } = await import('@pcp/profiler/testing');
  const tls = Boolean(opts.tls);
  const example: TestServer | undefined = pages.some((p) => p.server === 'example')
    ? await startTestServer({ root: join(ROOT, 'profiler/example-site'), origins: [{ name: 'a', tls }, { name: 'b', tls }] })
    : undefined;
  let suite: TestServer | undefined;
  try {
    if (pages.some((p) => p.server === 'suite')) {
      suite = tls ? await startTestServer({ root: SITES_DIR, origins: [{ name: 'a', tls }, { name: 'b', tls }, { name: 'c', http2: true }] }) : await startSuiteServer();
    }
  } catch (e) {
    await example?.close();
    throw e;
  }
  return {
    target(page) {
      const server = page.server === 'example' ? example! : suite!;
      return { url: server.urls.a! + page.path, hostResolverRules: server.hostResolverRules };
    },
    async close() {
      await example?.close();
      await suite?.close();
    },
  };
}
