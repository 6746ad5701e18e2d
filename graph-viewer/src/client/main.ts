/** Client entry: a hash router between the graph list (#/) and one graph (#/graph/<id>). */
import { showGraph } from './graphPage.ts';
import { showList } from './listPage.ts';

let dispose: (() => void) | null = null;

async function route(): Promise<void> {
  dispose?.();
  dispose = null;
  const app = document.getElementById('app')!;
  const m = /^#\/graph\/([A-Za-z0-9._-]+)/.exec(location.hash);
  dispose = m ? await showGraph(app, m[1]!) : await showList(app);
}

window.addEventListener('hashchange', () => void route());
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void route());
else void route();
