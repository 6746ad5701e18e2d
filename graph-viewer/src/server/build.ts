/**
 * Bundles the browser client (src/client) with esbuild into graph-viewer/public/: app.js, the layout
 * worker, index.html and style.css. Runs at server start (about a quarter of a second) so the page
 * always matches the sources.
 *
 * The test hook (`window.__pcpViewer`, src/client/testHook.ts) is compiled in only when `testHook` is
 * set: `PCP_TEST_HOOK` is defined as a constant and the minifier drops the hook from the production
 * bundle, so the page every user loads does not carry it. Test builds go to their own directory.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));

export interface ClientBuildOptions {
  /** Compile in the test hook (tests and the benchmark only). */
  testHook?: boolean;
}

export async function buildClient(outdir: string = PUBLIC_DIR, opts: ClientBuildOptions = {}): Promise<void> {
  mkdirSync(outdir, { recursive: true });
  try {
    await build({
      entryPoints: { app: `${CLIENT_DIR}main.ts`, worker: `${CLIENT_DIR}layoutWorker.ts` },
      bundle: true,
      format: 'esm',
      target: 'es2022',
      outdir,
      sourcemap: true,
      minify: true,
      define: { PCP_TEST_HOOK: opts.testHook ? 'true' : 'false' },
      logLevel: 'silent',
    });
  } catch (e) {
    // esbuild's own message only counts errors; say which.
    const errors = (e as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    const first = errors[0];
    throw new Error(`client build failed: ${first ? `${first.location?.file ?? ''}:${first.location?.line ?? ''} ${first.text}` : (e as Error).message}`);
  }
  for (const f of ['index.html', 'style.css']) copyFileSync(`${CLIENT_DIR}${f}`, `${outdir}${f}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { scriptArgs } = await import('@pcp/profiler/script-args');
  scriptArgs('build:viewer', `
usage: npm run build:viewer

Bundles the viewer's browser client (graph-viewer/src/client) with esbuild into graph-viewer/public/
(pcp view also does this at start).
`, {});
  await buildClient();
  console.log(`built ${PUBLIC_DIR}`);
}
