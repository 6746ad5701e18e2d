/**
 * How the viewer classifies and colours nodes. Colours follow the thesis figures: parse chunks black,
 * computations (script/CSS evaluation) red, resources and their download chunks blue, timers orange,
 * events green; frames are drawn as grey groups behind their nodes.
 */
import type { NodeKind } from '@pcp/graph-builder';

/** Lanes of the time-axis layout, top to bottom within a frame. */
export type Lane = 'resource' | 'download' | 'parse' | 'compute' | 'timer' | 'event' | 'marker';
export const LANES: readonly Lane[] = ['resource', 'download', 'parse', 'compute', 'timer', 'event', 'marker'];

export const LANE_OF_KIND: Record<NodeKind, Lane> = {
  resource: 'resource',
  download_chunk: 'download',
  parse_chunk: 'parse',
  script_eval: 'compute',
  css_eval: 'compute',
  timer: 'timer',
  event: 'event',
  marker: 'marker',
};

export const KIND_COLOUR: Record<NodeKind, string> = {
  resource: '#1f5fd1',
  download_chunk: '#7aa7ee',
  parse_chunk: '#111111',
  script_eval: '#d62728',
  css_eval: '#e8727a',
  timer: '#ff8c00',
  event: '#2ca02c',
  marker: '#7b3fa0',
};

export const FRAME_FILL = '#e6e6e6';
export const FRAME_STROKE = '#b0b0b0';
/** A collapsed frame's bar. */
export const COLLAPSED_FRAME_FILL = '#cfcfcf';
export const CRITICAL_COLOUR = '#ff00aa';

/** Main-thread work (what the waterfall shows under the resources). */
export function isComputation(kind: NodeKind): boolean {
  return kind === 'parse_chunk' || kind === 'script_eval' || kind === 'css_eval' || kind === 'timer' || kind === 'event';
}
