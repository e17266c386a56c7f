/**
 * lib/search's front door: searching a run's tree (the page's search box, benches, e2e). Browser-safe and pure (its
 * package.json says it has no side effects, so a page bundles only what it uses).
 * Not responsible for anything itself: it names what is public; tree-search.ts holds the definitions.
 */

export { buildSearchIndex, hitSnippet, normaliseQuery, searchIndex, searchTree } from './tree-search';
export type { HitSnippet, SearchField, SearchHit, TreeSearchIndex } from './tree-search';
