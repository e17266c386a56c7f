import { describe, expect, it } from 'vitest';
import { recordGame24 } from '../tasks/testing/recorded';
import { createRunStore } from './run-store';
import { createShownTree, MAX_PACE_MS, PACE_PER_BUILD } from './shown-tree';
import { manualClock } from './testing/manual-clock';

async function setUp() {
  const { events } = await recordGame24();
  const runStore = createRunStore(events[0]!.runId, () => {});
  const clock = manualClock();
  const shown = createShownTree(runStore, clock);
  const stop = shown.start();
  const grow = (to: number) => {
    runStore.getState().receiveMany(events.slice(runStore.getState().tree.lastSeq, to));
    runStore.getState().flush();
  };
  const nodesShown = () => Object.keys(shown.getState().tree.nodes).length;
  return { events, runStore, clock, shown, stop, grow, nodesShown };
}

describe('the tree the whole-tree views draw', () => {
  it('follows a growing live tree every change while its builds are cheap', async () => {
    const { runStore, shown, grow } = await setUp();
    shown.reportBuild(0);
    for (const to of [5, 10, 15]) {
      grow(to);
      expect(shown.getState().version).toBe(runStore.getState().version);
    }
  });

  it('shows a growing tree at most every few builds’ time, and the latest version when it does', async () => {
    const { runStore, clock, shown, grow } = await setUp();
    grow(5);
    shown.reportBuild(100);
    const first = shown.getState().version;
    expect(first).toBe(runStore.getState().version);
    grow(10);
    grow(15);
    expect(shown.getState().version).toBe(first); // held: the last one was shown just now
    clock.advance(PACE_PER_BUILD * 100 - 1);
    expect(shown.getState().version).toBe(first);
    clock.advance(1);
    expect(shown.getState().version).toBe(runStore.getState().version); // both growths at once, in one change
    // however slow a build, a grown tree is shown within MAX_PACE_MS
    shown.reportBuild(60_000);
    grow(20);
    clock.advance(MAX_PACE_MS);
    expect(shown.getState().version).toBe(runStore.getState().version);
  });

  it('shows a seek, and back to live, at once, whatever the pace', async () => {
    const { events, runStore, clock, shown, grow } = await setUp();
    grow(events.length);
    shown.reportBuild(200);
    clock.advance(10_000);
    runStore.getState().seek(12);
    expect(shown.getState().tree.lastSeq).toBe(12);
    expect(shown.getState().tree).toBe(runStore.getState().tree);
    runStore.getState().seek(null);
    expect(shown.getState().tree.lastSeq).toBe(events.length);
    expect(shown.getState().version).toBe(runStore.getState().version);
  });

  it('stops following when stopped, its timer cleared', async () => {
    const { clock, shown, stop, grow } = await setUp();
    grow(5);
    shown.reportBuild(100);
    grow(10);
    expect(clock.pending()).toBe(1);
    stop();
    expect(clock.pending()).toBe(0);
    const held = shown.getState().version;
    grow(15);
    clock.advance(MAX_PACE_MS);
    expect(shown.getState().version).toBe(held);
  });
});
