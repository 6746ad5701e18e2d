/**
 * The trace categories a capture records. Chosen for what the trace-to-graph builder needs, and no
 * more, to keep tracing overhead low (the benchmark measures it):
 * - devtools.timeline: ParseHTML, EvaluateScript, v8.compile, FunctionCall, TimerInstall/TimerFire/
 *   TimerRemove, EventDispatch, XHRReadyStateChange/XHRLoad, ResourceSendRequest/ReceiveResponse/
 *   ReceivedData/Finish, ParseAuthorStyleSheet, UpdateLayoutTree, MarkDOMContent, MarkLoad,
 *   FrameStartedLoading, paint/layout slices;
 * - disabled-by-default-devtools.timeline: TracingStartedInBrowser and FrameCommittedInBrowser (which
 *   frame runs in which renderer process), RunTask (what the main thread was doing);
 * - disabled-by-default-devtools.timeline.stack: JS stack traces on TimerInstall, ResourceSendRequest,
 *   XHR and event slices (the initiating script when the network initiator is wrong);
 * - loading, blink.user_timing: navigation timing marks, LCP/FCP, frame loading;
 * - v8.execute: microtask runs (promise callbacks of fetch), the cheap part of V8's categories;
 * - blink.console: console.time/timeStamp marks pages may set;
 * - disabled-by-default-v8.inspector: async-task flows (AsyncTaskScheduled -> AsyncTaskRun), which link
 *   an image load (a microtask), a postMessage delivery or a pending script to what scheduled it; with
 *   the Runtime domain on, the stack conversion that starts an uncaught exception's error event.
 * Not recorded: the V8 CPU profiler (sampling), screenshots, invalidation tracking, and by default the
 * posted-task flows below.
 */
export const TRACE_CATEGORIES: readonly string[] = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'loading',
  'blink.user_timing',
  'v8.execute',
  'blink.console',
  'disabled-by-default-v8.inspector',
];

/**
 * Posted-task flows (`pcp profile --task-flows`): toplevel.flow's "SequenceManager PostTask" instants
 * and the toplevel RunTask slices they end in (a flow is written only when both ends are recorded).
 * They link a MessagePort message's handler to the script that posted it, which stock Chromium records
 * no other way. Off by default: every task of every process is traced, which makes traces about four
 * times larger and page loads slower (bench:profile prints the load-time ratio with and without them).
 */
export const TASK_FLOW_CATEGORIES: readonly string[] = ['toplevel', 'toplevel.flow'];
