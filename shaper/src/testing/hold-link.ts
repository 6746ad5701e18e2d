/**
 * Test fixture: opens a shaped link, prints {clientNetns, serverNetns, delayLinePid} as one JSON line
 * and keeps running until killed (the cleanup tests kill it with SIGKILL or SIGTERM).
 */
import { openShapedLink } from '../index.ts';
import type { Link } from '../link.ts';

openShapedLink({ bandwidthBps: 10e6, rttMs: 10 }).then(
  (link) => {
    const l = link as Link;
    console.log(JSON.stringify({ clientNetns: l.clientNetns, serverNetns: l.serverNetns, delayLinePid: l.delayLine?.pid }));
    setInterval(() => undefined, 1000);
  },
  (e: Error) => {
    console.error(`${e.name}: ${e.message}`);
    process.exit(1);
  },
);
