/**
 * lib/formats' front door: what other rooms use of it, the run export file (build, validate) and the foreign
 * Tree-of-Thoughts log reader. Node-side (the server's import and export, the harness, e2e).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { buildExport, foldChecked, validateRunExport } from './export';
export { checkEventFieldCaps, FIELD_CAPS } from './field-caps';
export type { RunExport } from './export';
export { describeValue, looksLikeTotLog, parseTotLog } from './tot-log';
export type { TotGame } from './tot-log';
