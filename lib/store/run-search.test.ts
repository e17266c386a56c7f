import { describe, expect, it } from 'vitest';
import { searchTree } from '../search/index';
import { recordGame24 } from '../tasks/testing/recorded';
import { createPageViewStore } from './page-view';
import { createRunSearch } from './run-search';
import { createRunStore } from './run-store';
import { manualClock } from './testing/manual-clock';

async function setUp() {
  const { events } = await recordGame24();
  const runStore = createRunStore(events[0]!.runId, () => {});
  const pageView = createPageViewStore();
  const clock = manualClock();
  const search = createRunSearch(runStore, pageView, { refreshMs: 300, clock });
  const grow = (to: number) => {
    runStore.getState().receiveMany(events.slice(runStore.getState().tree.lastSeq, to));
    runStore.getState().flush();
  };
  const expected = (query: string) =>
    searchTree(runStore.getState().tree, runStore.getState().events, query).map((h) => h.nodeId);
  return { events, runStore, pageView, clock, search, grow, expected };
}

describe('the run search', () => {
  it('puts a query’s hits in the page-view store at once, and clears them at once', async () => {
    const { events, pageView, search, grow, expected } = await setUp();
    grow(events.length);
    search.setQuery('left');
    const found = pageView.getState().search;
    expect(found.hits.length).toBeGreaterThan(1);
    expect(found.hits).toEqual(expected('left'));
    expect([...found.hitSet]).toEqual(found.hits);
    expect(found.matches.map((m) => m.field)).toContain('thought');
    expect(found.index).not.toBeNull();
    search.setQuery('   ');
    expect(pageView.getState().search).toMatchObject({ query: '', hits: [], index: null, active: -1 });
  });

  it('follows a growing run at most every refresh, the hit stepped to staying active', async () => {
    const { events, runStore, pageView, clock, search, grow, expected } = await setUp();
    grow(Math.floor(events.length / 3));
    search.setQuery('left');
    const early = pageView.getState().search.hits;
    expect(early.length).toBeGreaterThan(0);
    search.step(1);
    const stepped = pageView.getState().search.hits[0];
    expect(runStore.getState().selectedNodeId).toBe(stepped);

    clock.advance(300); // the refresh window since the query has passed: the next change is taken at once
    grow(events.length);
    expect(pageView.getState().search.hits).toBe(early); // not yet: the refresh is a timer away
    clock.advance(0);
    const late = pageView.getState().search;
    expect(late.hits).toEqual(expected('left'));
    expect(late.hits.length).toBeGreaterThan(early.length);
    expect(late.hits[late.active]).toBe(stepped);
  });

  it('takes more than one change in a refresh window as one, after the window', async () => {
    const { events, pageView, clock, search, grow, expected } = await setUp();
    grow(20);
    search.setQuery('left');
    grow(60);
    grow(events.length);
    expect(clock.pending()).toBe(1);
    clock.advance(299);
    expect(pageView.getState().search.hits).not.toEqual(expected('left'));
    clock.advance(1);
    expect(pageView.getState().search.hits).toEqual(expected('left'));
  });

  it('steps forward and back through the hits, wrapping, and selects each', async () => {
    const { events, runStore, pageView, search, grow } = await setUp();
    grow(events.length);
    search.setQuery('left');
    const { hits } = pageView.getState().search;
    search.step(-1);
    expect(pageView.getState().search.active).toBe(hits.length - 1);
    search.step(1);
    expect(pageView.getState().search.active).toBe(0);
    expect(runStore.getState().selectedNodeId).toBe(hits[0]);
  });

  it('a new query starts with no hit active', async () => {
    const { events, pageView, search, grow } = await setUp();
    grow(events.length);
    search.setQuery('left');
    search.step(1);
    search.setQuery('13');
    expect(pageView.getState().search.active).toBe(-1);
  });

  it('stops following the run when stopped, and starts again with the next query', async () => {
    const { events, pageView, clock, search, grow, expected } = await setUp();
    grow(20);
    search.setQuery('left');
    search.stop();
    grow(events.length);
    expect(clock.pending()).toBe(0);
    search.setQuery('left');
    expect(pageView.getState().search.hits).toEqual(expected('left'));
  });
});
