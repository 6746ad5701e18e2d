/**
 * The dataset card (a release's README.md): what the release holds, how it was made, its statistics
 * and figures, what was left out and how to query it. Pure: markdown from the release's facts. Page
 * strings (urls, failure reasons) are escaped so a card never carries markup a page chose.
 */
import { SCHEMA_VERSION } from '@pcp/graph-builder';
import type { FailureRecord } from './layout.ts';
import { RELEASE_FILES, tablePath, type ReleaseFacts } from './release.ts';
import { TABLE_NAMES, type TableName } from './tables.ts';

export interface CardInput extends ReleaseFacts {
  rows: Record<TableName, number>;
  /** summary.md written by pcp_corpus. */
  statsMarkdown: string;
  /** Figure base names (without extension). */
  figures: string[];
  crawlFailures: FailureRecord[];
  /** Pages of the corpus left out of the release (a graph that could not be read or failed the schema). */
  skipped: Array<{ id: string; url: string; reason: string }>;
}

/** Text for a markdown table cell or line: HTML and markdown punctuation escaped, one line. */
export function mdText(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[\\`*[\]<>|&]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function settingsLines(settings: object | undefined): string[] {
  const entries = Object.entries(settings ?? {});
  if (entries.length === 0) return ['(none recorded)'];
  return entries.map(([k, v]) => `- **${mdText(k)}**: ${mdText(typeof v === 'string' ? v : JSON.stringify(v))}`);
}

export function datasetCard(c: CardInput): string {
  const source = c.meta.source === 'legacy'
    ? 'the 2016 patched-Chromium logs of the PCP thesis (Salameh, 2018), rebuilt as graphs by `pcp corpus import-legacy`'
    : 'pages loaded in Chromium by `pcp corpus build` (DevTools Protocol traces, optionally packet captures for server delays)';
  const lines = [
    `# ${mdText(c.name)} ${c.version}`,
    '',
    `Dependency graphs of ${c.pages} page loads made with PCP (Page Completion Profiler): every activity of a load`,
    '(downloads, HTML parsing, script and style evaluation, timers, events) and what it waited for, with',
    'Parquet tables of pages, nodes, edges and resources, statistics and figures.',
    '',
    `- Version ${c.version}, published ${c.created}; corpus created ${mdText(c.meta.created ?? '')}.`,
    `- Licence: ${mdText(c.license)} (\`${RELEASE_FILES.license}\`).`,
    `- Source: ${source}. Site list: \`${RELEASE_FILES.sites}\`.`,
    `- Integrity: every file's sha256 is in \`${RELEASE_FILES.manifest}\` (a Frictionless Data Package); check with \`pcp corpus verify DIR\`.`,
    `- Metadata: \`${RELEASE_FILES.manifest}\` (Frictionless Data Package) and \`${RELEASE_FILES.croissant}\` (MLCommons Croissant 1.0 JSON-LD: the files with their sha256, a record set per Parquet table), e.g. \`mlcroissant.Dataset(jsonld="${RELEASE_FILES.croissant}").records("pages")\`.`,
    '',
    '## Files',
    '',
    '| path | what |',
    '|---|---|',
    `| \`${RELEASE_FILES.graphs}/<page_id>.json.gz\` | one graph per page, PCP graph format v${SCHEMA_VERSION} (\`schemaVersion: ${SCHEMA_VERSION}\`), JSON Schema in \`${RELEASE_FILES.graphSchema}\` |`,
    ...TABLE_NAMES.map((t) => `| \`${tablePath(t)}\` | ${c.rows[t]} rows; columns described in \`${RELEASE_FILES.manifest}\` |`),
    `| \`${RELEASE_FILES.stats}/\` | the statistics below (\`summary.md\`, \`summary.json\`) and figures (PNG and SVG) |`,
    `| \`${RELEASE_FILES.croissant}\` | MLCommons Croissant metadata of the same files and tables |`,
    `| \`${RELEASE_FILES.meta}\` | crawl settings |`,
    `| \`${RELEASE_FILES.sites}\` | the site list as given |`,
    `| \`${RELEASE_FILES.failures}\` | sites that failed to load or build, and pages left out of this release |`,
    '',
    '## Crawl settings',
    '',
    ...settingsLines(c.meta.settings),
    '',
    '## Statistics',
    '',
    'Times are ms since navigation start. The critical path is the longest path through a graph by node',
    'duration (thesis §3.5.3.2); its composition splits its time between network activities (resources,',
    'download chunks) and computation (parsing, script, style, timers, events), as WProf did.',
    '',
    c.statsMarkdown.trim(),
    '',
    '## Figures',
    '',
    ...c.figures.flatMap((f) => [`![${f}](${RELEASE_FILES.stats}/${f}.png)`, `[SVG](${RELEASE_FILES.stats}/${f}.svg)`, '']),
    '## Left out',
    '',
    `${c.crawlFailures.length} site(s) failed during the crawl; ${c.skipped.length} page(s) were left out of this release.`,
    '',
  ];
  if (c.crawlFailures.length + c.skipped.length > 0) {
    lines.push('| page | stage | reason |', '|---|---|---|');
    for (const f of c.crawlFailures) lines.push(`| ${mdText(f.url || f.id)} | crawl | ${mdText(f.reason)} |`);
    for (const s of c.skipped) lines.push(`| ${mdText(s.url || s.id)} | publish | ${mdText(s.reason)} |`);
    lines.push('');
  }
  lines.push(
    '## Querying',
    '',
    '```sql',
    "-- DuckDB",
    `SELECT mime_class, count(*), median(server_delay_ms) FROM '${tablePath('resources')}' GROUP BY mime_class;`,
    '```',
    '',
    '```python',
    'import pandas as pd',
    `pages = pd.read_parquet("${tablePath('pages')}")`,
    '```',
    '',
    '## Citation',
    '',
    'Salameh, L. (2018). *Towards Faster Web Page Loads Over Multiple Network Paths*. PhD thesis, University College London; chapter 3 describes PCP.',
    '',
  );
  return lines.join('\n');
}
