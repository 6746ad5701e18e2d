/** The end of tracing: Chromium's gzipped trace streamed (IO.read) straight into the bundle. */
import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import type { CdpEvent } from './cdp.ts';
import type { LaunchedBrowser } from './chromium.ts';
import { withTimeout } from './timeout.ts';
import { str, type Params } from './protocol-values.ts';


/** Stop tracing and stream Chromium's gzipped trace straight into the bundle. */
export async function saveTrace(browser: LaunchedBrowser, sessionId: string, file: string): Promise<void> {
  const cdp = browser.cdp;
  const complete = new Promise<Params>((resolve) => {
    const on = (ev: CdpEvent): void => {
      if (ev.method === 'Tracing.tracingComplete' && ev.sessionId === sessionId) {
        cdp.off('event', on);
        resolve(ev.params);
      }
    };
    cdp.on('event', on);
  });
  await cdp.send('Tracing.end', {}, sessionId);
  const done = await withTimeout(complete, 30_000, 'tracing did not complete within 30 s');
  const handle = str(done.stream);
  if (!handle) throw new Error('Chromium returned no trace stream');
  const out = createWriteStream(file + '.part');
  for (;;) {
    const r = await cdp.send<{ data: string; base64Encoded?: boolean; eof: boolean }>('IO.read', { handle, size: 4 << 20 }, sessionId);
    if (r.data) {
      const buf = Buffer.from(r.data, r.base64Encoded ? 'base64' : 'utf8');
      if (!out.write(buf)) await once(out, 'drain');
    }
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle }, sessionId).catch(() => {});
  out.end();
  await once(out, 'finish');
  renameSync(file + '.part', file);
}

