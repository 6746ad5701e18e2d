/**
 * @pcp/shaper: real packets through real kernel TCP over a link whose rate, delay and loss we control.
 * Client and server run in two network namespaces; see README.md.
 */
export { openShapedLink, type LinkSpec, type ShapedLink } from './link.ts';
export { ShaperError } from './errors.ts';
export { parseLinkSpec, parseLoss } from './spec.ts';
export { runCheck, formatReport, type CheckOptions, type CheckReport } from './measure/check.ts';
