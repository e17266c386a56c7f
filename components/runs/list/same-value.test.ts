import { InfiniteQueryObserver, QueryClient, replaceEqualDeep, type InfiniteData } from '@tanstack/react-query';
import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { sameByValue, shareByValue } from './same-value';

interface Run {
  id: string;
  status: string;
  createdAt: Date;
  startedAt: Date | null;
  exploredNodes: number;
  config: { explorationStrategy: string; beamWidth: number[] };
}
interface Page {
  items: Run[];
  nextCursor: string | null;
}

function run(id: string, patch: Partial<Run> = {}): Run {
  return {
    id,
    status: 'finished',
    createdAt: new Date(Date.UTC(2026, 0, 1, 12)),
    startedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, 1)),
    exploredNodes: 7,
    config: { explorationStrategy: 'bfs', beamWidth: [2, 3] },
    ...patch,
  };
}

/** A page of run.list as the browser gets it: through superjson, which revives every Date as a new object. */
function fetched(...items: Run[]): Page {
  return superjson.parse<Page>(superjson.stringify({ items, nextCursor: null }));
}

describe('shareByValue (the runs list structural sharing)', () => {
  it('keeps the previous page and every row when a refetch brings equal runs in new Date objects', () => {
    const before = fetched(run('a'), run('b'));
    const after = fetched(run('a'), run('b'));
    expect(after.items[0]?.createdAt).not.toBe(before.items[0]?.createdAt);
    expect(shareByValue(before, after)).toBe(before);
  });

  it('renews only the changed run (and the arrays holding it), keeping the other rows', () => {
    const before = fetched(run('a'), run('b'));
    const shared = shareByValue(before, fetched(run('a'), run('b', { exploredNodes: 8 })));
    expect(shared).not.toBe(before);
    expect(shared.items[0]).toBe(before.items[0]);
    expect(shared.items[1]).not.toBe(before.items[1]);
    expect(shared.items[1]?.exploredNodes).toBe(8);
    // the unchanged parts inside the changed run are kept too
    expect(shared.items[1]?.config).toBe(before.items[1]?.config);
  });

  it('counts a changed date, a date appearing, a longer array, an added key or a removed row as a change', () => {
    const a = run('a');
    expect(sameByValue(a, run('a'))).toBe(true);
    expect(sameByValue(a, run('a', { createdAt: new Date(Date.UTC(2026, 0, 2)) }))).toBe(false);
    expect(sameByValue(run('a', { startedAt: null }), a)).toBe(false);
    expect(sameByValue(a, run('a', { config: { explorationStrategy: 'bfs', beamWidth: [2, 3, 4] } }))).toBe(false);
    expect(sameByValue(a, { ...run('a'), finishReason: null })).toBe(false);
    expect(sameByValue(fetched(a, run('b')), fetched(a))).toBe(false);
  });

  it("is needed: react-query's own sharing renews every row that holds a Date", () => {
    const before = fetched(run('a'), run('b'));
    const shared = replaceEqualDeep(before, fetched(run('a'), run('b')));
    expect(shared).not.toBe(before);
    expect(shared.items[0]).not.toBe(before.items[0]);
  });

  it('through react-query: a poll that brings the same runs leaves the infinite query data as it was', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let nodes = 7;
    const observer = new InfiniteQueryObserver<Page, Error, InfiniteData<Page>, string[], string | null>(client, {
      queryKey: ['run', 'list'],
      queryFn: () => Promise.resolve(fetched(run('a'), run('b', { exploredNodes: nodes }))),
      initialPageParam: null,
      getNextPageParam: (page) => page.nextCursor,
      structuralSharing: shareByValue,
    });
    const stop = observer.subscribe(() => undefined);
    try {
      await observer.refetch();
      const first = observer.getCurrentResult().data;
      await observer.refetch();
      expect(observer.getCurrentResult().data).toBe(first);
      nodes = 8;
      await observer.refetch();
      const changed = observer.getCurrentResult().data;
      expect(changed).not.toBe(first);
      expect(changed?.pages[0]?.items[0]).toBe(first?.pages[0]?.items[0]);
    } finally {
      stop();
      client.clear();
    }
  });
});

describe('sameByValue as a row memo (RunRow)', () => {
  const onOpen = () => undefined;
  const onDelete = () => undefined;

  it('calls the props of a refetched, equal run the same row', () => {
    const before = { run: fetched(run('a')).items[0], onOpen, onDelete, deleting: false };
    const after = { run: fetched(run('a')).items[0], onOpen, onDelete, deleting: false };
    expect(sameByValue(before, after)).toBe(true);
  });

  it('renders the row again for a changed run, a new callback, a delete offered or withdrawn, or deleting', () => {
    const props = { run: run('a'), onOpen, onDelete: onDelete as (() => void) | null, deleting: false };
    expect(sameByValue(props, { ...props, run: run('a', { status: 'running' }) })).toBe(false);
    expect(sameByValue(props, { ...props, onOpen: () => undefined })).toBe(false);
    expect(sameByValue(props, { ...props, onDelete: null })).toBe(false);
    expect(sameByValue(props, { ...props, deleting: true })).toBe(false);
  });
});
