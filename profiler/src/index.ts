export * from './bundle.ts';
export { capturePage, type CaptureOptions, type CaptureResult } from './capture.ts';
export { profileMany, bundleDirFor, type BatchItem, type BatchOptions } from './batch.ts';
export { launchChromium, chromiumArgs, DEFAULT_CHROMIUM, BrowserMissingError, type LaunchOptions } from './chromium.ts';
export { TASK_FLOW_CATEGORIES, TRACE_CATEGORIES } from './trace-config.ts';
export { pickInterface, mappedAddress } from './pcap.ts';
export { spawnTied, findExecutable } from './child.ts';
