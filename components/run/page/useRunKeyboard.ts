'use client';
// The run page's keys: arrows move between parent (up), first child (down) and siblings (left, right); p prunes
// (asking first for a branch of more than a few nodes),
// e expands again, space pauses or resumes, s steps, , . [ ] { } move in time (an event, a search step, an MCTS
// iteration), f fits the tree, Escape clears the selection, d opens or closes
// the side drawer, i shows or hides the inspector in it, F8 / Shift F8 go to the next / previous breakpoint hit, ? lists
// the keys. Ignored while typing in a field. The discussion's keys (1 to 9: labels, c: a comment) are its own
// (discussion/useDiscussionKeys.ts), listed here for `?`.
import { useEffect } from 'react';
import { jump, type JumpTarget } from '@/lib/store/index';
import { jumpToHit } from '../breakpoints/useBreakpoints';
import { navigate } from '@/lib/store/index';
import { useFrame } from '../canvas/fit';
import { useRunStoreApi } from './RunStoreContext';
import type { RunCommands } from '../steering/useRunCommands';
import type { Steering } from '../steering/useSteering';
import { DRAWER_ID, DRAWER_TOGGLE_ID, drawerPanelId, type RunDrawer } from './useRunDrawer';

/**
 * The page's keys; `steer`: the key sends a command, so it is there only for whoever may steer the run; `discuss`:
 * it writes in the run's discussion, so only for whoever may discuss it.
 */
export const KEYS: { keys: string; what: string; steer?: true; discuss?: true }[] = [
  { keys: '↑', what: 'parent' },
  { keys: '↓', what: 'first child' },
  { keys: '← →', what: 'previous / next sibling' },
  { keys: 'p', what: 'prune the selected branch (asks first for more than a few nodes)', steer: true },
  { keys: 'e', what: 'expand the selected node again', steer: true },
  { keys: 'space', what: 'pause / resume', steer: true },
  { keys: 's', what: 'one step (when paused)', steer: true },
  { keys: ', .', what: 'back / forward one event in time' },
  { keys: '[ ]', what: 'back / forward one search step in time' },
  { keys: '{ }', what: 'back / forward one MCTS iteration in time (a Monte Carlo tree search)' },
  { keys: 'l', what: 'back to live (the latest step)' },
  { keys: 'F8  Shift F8', what: 'next / previous breakpoint hit (its step, its node selected)' },
  { keys: 'f', what: 'zoom to fit' },
  { keys: '/  Ctrl F', what: 'search the nodes (Enter: next hit, Shift Enter: previous, Esc: clear)' },
  { keys: 'Esc', what: 'clear the selection' },
  { keys: 'd', what: 'open / close the side panel (inspector, events)' },
  { keys: 'i', what: 'show / hide the inspector' },
  { keys: '1 … 9', what: 'put the label with that key on the selected node, or take it off', discuss: true },
  { keys: 'c', what: 'comment on the selected node (nothing selected: on the run)', discuss: true },
  { keys: '?', what: 'this list' },
];

/** True when a key goes to a text field: the page's own keys (and the search box's "/") leave it alone. */
export function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)));
}

/** Closing the drawer while focus is inside it would drop focus on the page: it goes to the drawer's toggle. */
function closeDrawer(drawer: RunDrawer) {
  const hadFocus = document.getElementById(DRAWER_ID)?.contains(document.activeElement) ?? false;
  drawer.setOpen(false);
  if (hadFocus) document.getElementById(DRAWER_TOGGLE_ID)?.focus();
}

/**
 * The page's keys. `prune` is asked for a prune (p): the page decides whether to send it at once or to ask first
 * (PruneConfirm); the other commands go straight to `commands`. A command key does nothing when `why` (the run
 * page's one steering decision, useSteering.ts) says the command cannot be asked now: the person may only read this
 * run, the search does not take it, or the run's state does not allow it.
 */
export function useRunKeyboard(
  commands: RunCommands,
  toggleHelp: () => void,
  drawer: RunDrawer,
  prune: (nodeId: string) => void,
  steering: Pick<Steering, 'why' | 'context'>,
) {
  const { why, context } = steering;
  const steer = context.allowed;
  const store = useRunStoreApi();
  const frame = useFrame(); // fits from the published layout: at the far zoom React Flow holds no nodes
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (typing(event.target) || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === 'F8') {
        // a debugger's continue key, here over the hits already found (the timeline's marks)
        jumpToHit(store.getState(), event.shiftKey ? -1 : 1);
        event.preventDefault();
        return;
      }
      const state = store.getState();
      const tree = state.tree;
      const selected = state.selectedNodeId ? tree.nodes[state.selectedNodeId] : undefined;
      // a reader's command keys are not the page's: they do what they would anywhere else
      if (!steer && ['p', 'e', ' ', 's'].includes(event.key)) return;
      const move = (id: string | null | undefined) => {
        if (id) state.select(id);
      };
      const travel = (target: JumpTarget, direction: 1 | -1) => {
        const seq = jump(state.events, state.viewSeq ?? state.lastSeq, target, direction);
        if (seq === null) return;
        state.setView({ followLive: false });
        state.seek(seq);
      };
      switch (event.key) {
        case 'ArrowUp':
        case 'ArrowDown':
        case 'ArrowLeft':
        case 'ArrowRight':
          move(navigate(tree, state.selectedNodeId, event.key));
          break;
        case 'p':
          if (selected && why('prune', selected) === null) prune(selected.id);
          break;
        case 'e':
          if (selected && why('expand', selected) === null) commands.expand(selected.id);
          break;
        case ' ':
          if (why('pause') === null) commands.pause();
          else if (why('resume') === null) commands.resume();
          break;
        case 's':
          if (why('step') === null) commands.step();
          break;
        case ',':
          travel('event', -1);
          break;
        case '.':
          travel('event', 1);
          break;
        case '[':
          travel('step', -1);
          break;
        case ']':
          travel('step', 1);
          break;
        case '{':
          travel('iteration', -1);
          break;
        case '}':
          travel('iteration', 1);
          break;
        case 'l':
          state.seek(null);
          break;
        case 'f':
          frame(null);
          break;
        case 'Escape':
          state.select(null);
          break;
        case 'd':
          // a view toggle like f: focus stays where it is (on the canvas keys), unless it was inside the drawer
          if (drawer.open) closeDrawer(drawer);
          else drawer.setOpen(true);
          break;
        case 'i':
          if (drawer.open && drawer.tab === 'inspector') closeDrawer(drawer);
          else {
            drawer.show('inspector');
            // the person asked to read it: focus goes there, so Tab reaches its buttons (the tree keys still work)
            requestAnimationFrame(() => document.getElementById(drawerPanelId('inspector'))?.focus());
          }
          break;
        case '?':
          toggleHelp();
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, frame, commands, toggleHelp, drawer, prune, steer, why]);
}
