export { startViewer, type Viewer, type ViewerOptions } from './server/server.ts';
export { buildClient } from './server/build.ts';
export { buildCatalog } from './server/catalog.ts';
export { timeAxisLayout } from './shared/timeAxisLayout.ts';
export { layeredLayout, longestPathLayers } from './shared/layeredLayout.ts';
export { toLayoutInput } from './shared/layoutTypes.ts';
export { graphToDot } from './shared/dot.ts';
