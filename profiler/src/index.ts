export * from './bundle.ts';
export { capturePage, settleBrowserUi, type CaptureOptions, type CaptureResult } from './capture.ts';
export { profileMany, bundleDirFor, type BatchItem, type BatchOptions } from './batch.ts';
export { launchChromium, chromiumArgs, DEFAULT_CHROMIUM, BrowserMissingError, type LaunchOptions } from './chromium.ts';
export { TASK_FLOW_CATEGORIES, TRACE_CATEGORIES } from './trace-config.ts';
export { pickInterface, mappedAddress } from './pcap.ts';
export { spawnTied, findExecutable } from './child.ts';
export { buildHar, entryBody, harHeaders, type Har, type HarEntry, type HarHeader, type ArchiveSummary, type RecordedBody } from './archive.ts';
