/**
 * Command-line shell over startTestServer: serve a directory of test sites until interrupted.
 *
 *   node --import tsx profiler/test-server/cli.ts [--root DIR] [--origin NAME[:PORT][:h1|:tls|:h2]]...
 *
 * Default root: profiler/test-sites; default origins: a (HTTP/1.1), b (HTTP/1.1), c (HTTP/2 over TLS).
 * Prints one JSON line {urls, hostResolverRules} on stdout once listening, so scripts can read it.
 */
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startTestServer, type OriginSpec } from './server.ts';

export const DEFAULT_ORIGINS: OriginSpec[] = [{ name: 'a' }, { name: 'b' }, { name: 'c', http2: true }];

/** 'b', 'b:8002', 'c:h2', 'c:8443:h2', 'd:tls' -> OriginSpec. */
export function parseOrigin(text: string): OriginSpec {
  const [name, ...rest] = text.split(':');
  if (!name) throw new Error(`bad --origin '${text}'`);
  const spec: OriginSpec = { name };
  for (const part of rest) {
    if (/^\d+$/.test(part)) spec.port = Number(part);
    else if (part === 'h2') spec.http2 = true;
    else if (part === 'tls') spec.tls = true;
    else if (part !== 'h1') throw new Error(`bad --origin '${text}': '${part}' is not a port, h1, tls or h2`);
  }
  return spec;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { root: { type: 'string' }, origin: { type: 'string', multiple: true }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log('usage: cli.ts [--root DIR] [--origin NAME[:PORT][:h1|:tls|:h2]]...');
    return;
  }
  const root = values.root ?? fileURLToPath(new URL('../test-sites/', import.meta.url));
  const origins = values.origin?.map(parseOrigin) ?? DEFAULT_ORIGINS;
  const server = await startTestServer({ root, origins });
  console.log(JSON.stringify({ urls: server.urls, hostResolverRules: server.hostResolverRules }));
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(`test-server: ${(e as Error).message}`);
    process.exit(1);
  });
}
