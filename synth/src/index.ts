export { synthesizeSite, type Site, type SiteResponse } from './site.ts';
export { writeSiteBundle, readSynthMeta, SYNTH_FILES, type SynthMeta } from './bundle.ts';
export { lastActivityMs, quietFloorMs } from './activity.ts';
export { imageBody, imageFormatOf, padText, textKindOf, type ImageFormat } from './bodies.ts';
export { htmlAttr, jsString, cssUrl } from './escape.ts';
export { indexGraph, contentKeys, type GraphIndex } from './graph-index.ts';
export { parametricGraph, parseSizeDist, drawSize, type SizeDist, type ParametricOptions } from './parametric.ts';
export { compareRoundTrip, edgeClasses, keyKind, type KeyedEdge, type RoundTripFigures, type RuleFigures } from './compare.ts';
export { roundTrip, RoundTripError, type RoundTrip } from './roundtrip.ts';
