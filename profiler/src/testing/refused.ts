/**
 * A loopback URL whose connections are refused for as long as it is held: a listener on 127.0.0.1:P keeps any
 * other process from binding port P on every address (a bound-then-closed port can be taken by the next
 * listen(0) on the machine), and the URL names 127.0.0.2:P, where nothing listens.
 */
import net from 'node:net';

export interface RefusedUrl {
  /** http://127.0.0.2:P/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function holdRefusedUrl(): Promise<RefusedUrl> {
  const guard = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    guard.once('error', reject);
    guard.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (guard.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.2:${port}/`, port, close: () => new Promise((resolve) => guard.close(() => resolve())) };
}
