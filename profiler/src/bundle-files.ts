/** The bundle's file names (the contract: bundle.ts, BUNDLE.md). Apart so the readers need no cycle. */
export const BUNDLE_FILES = {
  trace: 'trace.json.gz',
  devtoolsLog: 'devtools.log.json',
  frames: 'frames.json',
  documents: 'documents.json',
  listeners: 'listeners.json',
  meta: 'meta.json',
  pcap: 'capture.pcap',
  tlsKeys: 'tls-keys.log',
  archive: 'archive.har',
} as const;
