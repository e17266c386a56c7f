// Comments and labels on a run's nodes (issue 34), in local mode, on one finished Game of 24 run: two people with the
// run open at once (two browser contexts, named alice and bob by the page's actor name); what one writes reaches the
// other's open page without a reload, as a badge on the node's card, in the inspector and on the timeline; a reply
// threads; edit and delete follow; labels put with a click and with a key; a person's text shown literally, never as
// markup; refused input keeps what was typed; the Discussion tab lists everything and each entry shows its node at its
// step; a comment's link opened in a fresh browser highlights it there; screenshots at 1280x720, light and dark; a
// hidden tab lets its stream go and, shown again, has what was written meanwhile.
// data-testid used: thought-node (data-node-id), discussion-badge (data-comments, data-labels), inspector-node
//   (data-node-id), node-discussion, comment-box, comment-submit, comment-error, comment (data-comment-id,
//   data-highlighted), comment-text, comment-author, comment-reply, reply-form, comment-edit, edit-form,
//   comment-delete, comment-delete-confirm, comment-copy-link (data-link), comment-thread, label-chip (data-label,
//   aria-pressed), node-label (data-label), label-note-edit, label-note-input, label-note, discussion-marks,
//   discussion-mark, drawer-tab-discussion, discussion-count, run-drawer (data-tab), discussion-panel,
//   discussion-entry (data-kind, data-node-id), discussion-place, discussion-tally, run-comment-form,
//   timeline-position, run-status.
import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import type { RunComment } from '../lib/contract/discussion';
import { fold } from '../lib/engine/index';
import { E2E_BASE, mutate, ndjson, query } from './api';

test.use({ viewport: { width: 1280, height: 720 } });
test.describe.configure({ mode: 'serial' });

let runId = '';
let lastSeq = 0;
/** Three nodes that ran and kept their place in the tree: the nodes people write about here. */
let nodes: string[] = [];
/** A past step at which every node of `nodes` exists. */
let pastStep = 0;

test.beforeAll(async () => {
  ({ id: runId } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    config: { beamWidth: 2 },
    model: { provider: 'simulated', seed: 3, latencyMs: 0 },
  }));
  await expect
    .poll(async () => (await query<{ status: string }>(E2E_BASE, 'run.byId', { id: runId })).status, {
      timeout: 60_000,
    })
    .toBe('finished');
  const log = await ndjson(E2E_BASE, runId);
  lastSeq = log.length;
  const created = log.filter((e) => e.type === 'node.created');
  // nodes that ran and kept their place (a failed one folds into its parent's dead-end card)
  const tree = fold(log);
  nodes = created
    .map((e) => tree.nodes[nodeOf(e.payload)])
    .filter((n) => n !== undefined && n.parentId !== null && n.status === 'completed')
    .map((n) => n?.id ?? '')
    .slice(0, 3);
  expect(nodes).toHaveLength(3);
  const madeAt = Math.max(...created.filter((e) => nodes.includes(nodeOf(e.payload))).map((e) => e.seq));
  pastStep = Math.min(madeAt + 5, lastSeq - 1);
});

const nodeOf = (payload: unknown) => (payload as { nodeId: string }).nodeId;

/** A page of its own browser context, whose tRPC writes carry `name` (the local person's actor name). */
async function personPage(browser: Browser, name: string, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: scheme });
  await context.addInitScript((actor) => window.localStorage.setItem('arborist.actor', actor), name);
  const page = await context.newPage();
  // a person's text must never run as markup on anyone's page
  page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`);
  });
  return page;
}

async function openRun(page: Page, query = '') {
  await page.goto(`/runs/${runId}${query}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id="${nodeId}"]`);
const badge = (page: Page, nodeId: string) => card(page, nodeId).getByTestId('discussion-badge');
const nodeDiscussion = (page: Page) => page.getByTestId('node-discussion');
const commentsOf = async (nodeId: string) =>
  (await query<RunComment[]>(E2E_BASE, 'comment.list', { runId })).filter((c) => c.nodeId === nodeId);

async function comment(page: Page, text: string) {
  const box = nodeDiscussion(page).getByTestId('comment-form').getByTestId('comment-box');
  await box.fill(text);
  await nodeDiscussion(page).getByTestId('comment-form').getByTestId('comment-submit').click();
  await expect(box).toHaveValue(''); // the server took it
}

test('a comment reaches the other open page as a badge, in its inspector and on its timeline; a reply threads it; edit and delete follow', async ({
  browser,
}) => {
  const node = nodes[0] as string;
  const alice = await personPage(browser, 'alice');
  const bob = await personPage(browser, 'bob');
  // bob has the run open, the node selected, before anything is written; he never reloads
  await openRun(bob, `?node=${node}`);
  await expect(bob.getByTestId('inspector-node')).toHaveAttribute('data-node-id', node);
  await expect(badge(bob, node)).toHaveCount(0);
  await expect(bob.getByTestId('discussion-marks')).toHaveCount(0);

  // alice, at a past step, selects the node on the canvas and comments
  await openRun(alice, `?step=${pastStep}`);
  await card(alice, node).click();
  await expect(alice.getByTestId('inspector-node')).toHaveAttribute('data-node-id', node);
  await comment(alice, 'The evaluator scored this 0.9, but 13 - 9 = 4 leaves no way to 24.');
  await expect(badge(alice, node)).toHaveAttribute('data-comments', '1');

  await expect(badge(bob, node)).toHaveAttribute('data-comments', '1');
  const first = nodeDiscussion(bob).getByTestId('comment').first();
  await expect(first.getByTestId('comment-text')).toHaveText(
    'The evaluator scored this 0.9, but 13 - 9 = 4 leaves no way to 24.',
  );
  await expect(first.getByTestId('comment-author')).toHaveText('alice');
  await expect(first).toContainText(`step ${pastStep}`);
  await expect(bob.getByTestId('discussion-marks')).toHaveAttribute('data-count', '1');
  await expect(bob.getByTestId('discussion-count')).toHaveText('1');
  const [stored] = await commentsOf(node);
  expect(stored).toMatchObject({ step: pastStep, author: { id: null, name: 'alice' }, replyTo: null });

  // bob replies: one thread of two
  await first.getByTestId('comment-reply').click();
  await bob.getByTestId('reply-form').getByTestId('comment-box').fill('Agreed: it should have been pruned.');
  await bob.getByTestId('reply-form').getByTestId('comment-submit').click();
  const thread = nodeDiscussion(alice).getByTestId('comment-thread');
  await expect(thread).toHaveCount(1);
  await expect(thread.getByTestId('comment')).toHaveCount(2);
  await expect(thread.getByTestId('comment').nth(1).getByTestId('comment-author')).toHaveText('bob');
  await expect(badge(alice, node)).toHaveAttribute('data-comments', '2');
  const reply = (await commentsOf(node)).find((c) => c.author.name === 'bob');
  expect(reply?.replyTo).toBe(stored?.id);

  // alice edits her comment; bob's page follows, marked edited
  const aliceFirst = thread.getByTestId('comment').first();
  await aliceFirst.getByTestId('comment-edit').click();
  await alice
    .getByTestId('edit-form')
    .getByTestId('comment-box')
    .fill('13 - 9 = 4, and 4 with 4 and 10 never makes 24.');
  await alice.getByTestId('edit-form').getByTestId('comment-submit').click();
  await expect(first.getByTestId('comment-text')).toHaveText('13 - 9 = 4, and 4 with 4 and 10 never makes 24.');
  await expect(first).toContainText('edited');

  // deleting the first keeps the thread (it has a reply) as a stub; deleting the reply too leaves nothing
  await aliceFirst.getByTestId('comment-delete').click();
  await aliceFirst.getByTestId('comment-delete-confirm').click();
  await expect(first.getByTestId('comment-text')).toHaveText('This comment was deleted.');
  await expect(badge(bob, node)).toHaveAttribute('data-comments', '1');
  const bobReply = nodeDiscussion(bob).getByTestId('comment').nth(1);
  await bobReply.getByTestId('comment-delete').click();
  await bobReply.getByTestId('comment-delete-confirm').click();
  await expect(nodeDiscussion(alice).getByTestId('comment')).toHaveCount(0);
  await expect(badge(alice, node)).toHaveCount(0);
  await expect(badge(bob, node)).toHaveCount(0);
  expect(await commentsOf(node)).toEqual([]);

  await alice.context().close();
  await bob.context().close();
});

test("a person's text shows literally, never as markup; refused input keeps what was typed", async ({ browser }) => {
  const node = nodes[1] as string;
  const alice = await personPage(browser, 'alice');
  const bob = await personPage(browser, 'bob');
  await openRun(bob, `?node=${node}`);
  await openRun(alice, `?node=${node}`);

  const markup = '<img src=x onerror=alert(1)> <b>bold?</b> <script>alert(2)</script>';
  await comment(alice, markup);
  const shown = nodeDiscussion(bob).getByTestId('comment-text');
  await expect(shown).toHaveText(markup);
  await expect(nodeDiscussion(bob).locator('img, b, script')).toHaveCount(0);

  // empty, and over 10,000 characters: refused beside the form in the server's words, the text kept
  const form = nodeDiscussion(alice).getByTestId('comment-form');
  await form.getByTestId('comment-box').fill('   ');
  await form.getByTestId('comment-submit').click();
  await expect(form.getByTestId('comment-error')).toHaveText('text: a comment cannot be empty');
  const long = 'x'.repeat(10_001);
  await form.getByTestId('comment-box').fill(long);
  await form.getByTestId('comment-submit').click();
  await expect(form.getByTestId('comment-error')).toHaveText('text: a comment has at most 10,000 characters');
  await expect(form.getByTestId('comment-box')).toHaveValue(long);
  expect(await commentsOf(node)).toHaveLength(1);
  // and the server refuses the same, whatever a page sends
  await expect(mutate(E2E_BASE, 'comment.add', { runId, nodeId: node, text: long })).rejects.toThrow(
    'text: a comment has at most 10,000 characters',
  );
  await expect(mutate(E2E_BASE, 'comment.add', { runId, nodeId: 'n9999', text: 'hello' })).rejects.toThrow(/n9999/);

  await alice.context().close();
  await bob.context().close();
});

test("labels put with a click and with a key show on the other page's card; a label carries a note", async ({
  browser,
}) => {
  const node = nodes[2] as string;
  const alice = await personPage(browser, 'alice');
  const bob = await personPage(browser, 'bob');
  await openRun(bob);
  await openRun(alice, `?node=${node}`);
  const chip = (name: string) => nodeDiscussion(alice).locator(`[data-testid=label-chip][data-label="${name}"]`);
  await expect(chip('good thought')).toHaveAttribute('aria-pressed', 'false');

  await chip('good thought').click();
  await expect(chip('good thought')).toHaveAttribute('aria-pressed', 'true');
  await expect(badge(bob, node)).toHaveAttribute('data-labels', '1');
  await expect(badge(bob, node)).toHaveAttribute('title', '1 label: good thought');

  // key 2 is the second label of the set; focus is on the chip, not in a text field, so the key is the page's
  await alice.keyboard.press('2');
  await expect(chip('evaluator wrong')).toHaveAttribute('aria-pressed', 'true');
  await expect(badge(bob, node)).toHaveAttribute('data-labels', '2');
  await expect(badge(bob, node)).toHaveAttribute('title', '2 labels: good thought, evaluator wrong');
  // pressed again, it comes off
  await alice.keyboard.press('2');
  await expect(badge(bob, node)).toHaveAttribute('data-labels', '1');
  // typing a digit in the comment box is text, not a label
  await nodeDiscussion(alice).getByTestId('comment-box').fill('');
  await nodeDiscussion(alice).getByTestId('comment-box').press('3');
  await expect(nodeDiscussion(alice).getByTestId('comment-box')).toHaveValue('3');
  await expect(chip('should have pruned')).toHaveAttribute('aria-pressed', 'false');

  // a note on the label
  const line = nodeDiscussion(alice).locator('[data-testid=node-label][data-label="good thought"]');
  await line.getByTestId('label-note-edit').click();
  await line.getByTestId('label-note-input').fill('the only branch that keeps 13');
  await line.getByTestId('label-note-input').press('Enter');
  await card(bob, node).click();
  await expect(
    nodeDiscussion(bob).locator('[data-testid=node-label][data-label="good thought"]').getByTestId('label-note'),
  ).toHaveText('the only branch that keeps 13');
  await expect(bob.getByTestId('discussion-marks')).toHaveAttribute('data-count', /\d+/);

  await alice.context().close();
  await bob.context().close();
});

test('the Discussion tab lists every comment and label, and a click shows its node at its step', async ({ page }) => {
  const node = nodes[0] as string;
  const { comment: written } = await mutate<{ comment: RunComment }>(E2E_BASE, 'comment.add', {
    runId,
    nodeId: node,
    text: 'Worth a second look: the search backtracked from here.',
    step: pastStep,
  });
  await mutate(E2E_BASE, 'comment.add', { runId, text: 'The run as a whole: beam 2 is too narrow here.' });
  await openRun(page);
  await page.getByTestId('drawer-tab-discussion').click();
  await expect(page.getByTestId('run-drawer')).toHaveAttribute('data-tab', 'discussion');
  const panel = page.getByTestId('discussion-panel');
  const all = await query<RunComment[]>(E2E_BASE, 'comment.list', { runId });
  const labels = await query<unknown[]>(E2E_BASE, 'label.list', { runId });
  await expect(panel.getByTestId('discussion-entry')).toHaveCount(
    new Set(all.map((c) => c.replyTo ?? c.id)).size + labels.length,
  );
  await expect(panel.locator('[data-testid=discussion-entry][data-kind=label]')).toHaveCount(labels.length);
  await expect(panel.getByTestId('discussion-tally').first()).toContainText('good thought');
  const runComment = panel.locator('[data-testid=discussion-entry][data-node-id=""]');
  await expect(runComment).toContainText('The run as a whole: beam 2 is too narrow here.');
  await expect(runComment.getByTestId('discussion-place')).toContainText('run');
  await expect(runComment.getByTestId('discussion-place')).toContainText(`step ${lastSeq}`);

  // the entry's link: its node selected at the step it was written at, the comment highlighted
  const entry = panel.locator(`[data-testid=discussion-entry]:has([data-comment-id="${written.id}"])`);
  await entry.getByTestId('discussion-place').click();
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${pastStep} /`);
  await expect(page.locator(`.react-flow__node.selected [data-testid=thought-node]`)).toHaveAttribute(
    'data-node-id',
    node,
  );
  await expect(entry.locator(`[data-comment-id="${written.id}"]`)).toHaveAttribute('data-highlighted', 'true');
  await expect(page).toHaveURL(new RegExp(`[?&]comment=${written.id}`));
  // the label filter keeps only that label
  await panel.getByTestId('discussion-tally').first().click();
  await expect(panel.locator('[data-testid=discussion-entry][data-kind=thread]')).toHaveCount(0);
  await expect(panel.locator('[data-testid=discussion-entry][data-kind=label]')).toHaveCount(1);
});

test("a comment's link opened in a fresh browser shows it highlighted at its node and step", async ({ browser }) => {
  const node = nodes[1] as string;
  const author = await personPage(browser, 'alice');
  await openRun(author, `?node=${node}`);
  const target = nodeDiscussion(author).getByTestId('comment').first();
  const link = await target.getByTestId('comment-copy-link').getAttribute('data-link');
  const id = await target.getAttribute('data-comment-id');
  expect(link).toBe(`/runs/${runId}?comment=${id}`);
  const [stored] = await commentsOf(node);
  await author.context().close();

  const fresh = await personPage(browser, 'carol');
  await fresh.goto(link as string);
  await expect(fresh.getByTestId('run-drawer')).toHaveAttribute('data-tab', 'discussion');
  const highlighted = fresh.getByTestId('discussion-panel').locator(`[data-comment-id="${id}"]`);
  await expect(highlighted).toHaveAttribute('data-highlighted', 'true');
  await expect(highlighted).toBeInViewport();
  await expect(fresh.locator(`.react-flow__node.selected [data-testid=thought-node]`)).toHaveAttribute(
    'data-node-id',
    node,
  );
  await expect(fresh.getByTestId('timeline-position')).toContainText(
    stored?.step === lastSeq ? `step ${lastSeq} / ${lastSeq}` : `step ${stored?.step} /`,
  );
  // the inspector highlights it too
  await fresh.getByTestId('drawer-tab-inspector').click();
  await expect(nodeDiscussion(fresh).locator(`[data-comment-id="${id}"]`)).toHaveAttribute('data-highlighted', 'true');
  await fresh.context().close();
});

test('screenshots: the inspector with a thread and labels, and the Discussion tab, light and dark', async ({
  browser,
}) => {
  const node = nodes[0] as string;
  const { id: first } = await mutate<{ id: string }>(E2E_BASE, 'comment.add', {
    runId,
    nodeId: node,
    text: 'Why did the evaluator give this 0.9? 13 - 9 = 4 leaves 4, 4 and 10, which cannot reach 24.',
    step: pastStep,
  });
  await mutate(E2E_BASE, 'comment.add', {
    runId,
    nodeId: node,
    replyTo: first,
    text: 'Its prompt lost the remaining numbers after the first step.\nSee the second model call.',
  });
  await mutate(E2E_BASE, 'label.set', {
    runId,
    nodeId: node,
    label: 'evaluator wrong',
    note: 'scored 0.9, impossible',
  });
  await mutate(E2E_BASE, 'label.set', { runId, nodeId: node, label: 'should have pruned' });
  for (const scheme of ['light', 'dark'] as const) {
    const page = await personPage(browser, 'e2e', scheme);
    await openRun(page, `?node=${node}`);
    const section = page.getByTestId('inspector-discussion');
    await expect(section.getByTestId('comment-thread').first()).toBeVisible();
    // the inspector's own scroller, not scrollIntoView (which would scroll the page's clipped frame too)
    await section.evaluate((el) => {
      const body = el.parentElement as HTMLElement;
      body.scrollTop += el.getBoundingClientRect().top - body.getBoundingClientRect().top;
    });
    await page.screenshot({ path: test.info().outputPath(`discussion-inspector-${scheme}.png`) });
    await page.getByTestId('drawer-tab-discussion').click();
    await expect(page.getByTestId('discussion-list')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`discussion-tab-${scheme}.png`) });
    await page.context().close();
  }
});

test('an exported and re-imported run keeps its comments and labels, shown on the copy with their badge', async ({
  page,
}) => {
  const node = nodes[2] as string;
  const text = 'Kept across export and import: the branch to read first.';
  await mutate(E2E_BASE, 'comment.add', { runId, nodeId: node, text, step: pastStep });
  const exported = await fetch(`${E2E_BASE}/api/runs/${runId}/export`);
  expect(exported.status).toBe(200);
  const file = (await exported.json()) as { discussion?: { comments: { text: string }[]; labels: unknown[] } };
  expect(file.discussion?.comments.map((c) => c.text)).toContain(text);

  const imported = await fetch(`${E2E_BASE}/api/runs/import?tag=e2e-discussion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(file),
  });
  expect(imported.status).toBe(200);
  const { runs } = (await imported.json()) as { runs: { id: string }[] };
  const copyId = runs[0]?.id as string;
  expect(copyId).not.toBe(runId);
  const copied = await query<RunComment[]>(E2E_BASE, 'comment.list', { runId: copyId });
  expect(copied.find((c) => c.text === text)).toMatchObject({ nodeId: node, step: pastStep });

  await page.goto(`/runs/${copyId}?node=${node}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(nodeDiscussion(page).getByTestId('comment-text').filter({ hasText: text })).toBeVisible();
  const label = nodeDiscussion(page).locator('[data-testid=node-label][data-label="good thought"]');
  await expect(label.getByTestId('label-note')).toHaveText('the only branch that keeps 13');
  const copiedBadge = badge(page, node);
  await expect(copiedBadge).toHaveAttribute('data-comments', String(copied.filter((c) => c.nodeId === node).length));
  await expect(copiedBadge).toHaveAttribute('data-labels', '1');
});

/** Makes the page's tab hidden or shown, as switching tabs does (Playwright's page is always visible). */
async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (value ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

test('a hidden tab of a finished run lets its stream go, and shows what was written meanwhile when it comes back', async ({
  browser,
}) => {
  const bob = await personPage(browser, 'bob');
  // the run's streams this page has open: asked for and not yet ended
  let open = 0;
  const isStream = (url: string) => url.includes('/api/trpc/run.onEvents');
  bob.on('request', (request) => {
    if (isStream(request.url())) open++;
  });
  const ended = (request: Request) => {
    if (isStream(request.url())) open--;
  };
  bob.on('requestfinished', ended);
  bob.on('requestfailed', ended);
  await openRun(bob);
  await expect.poll(() => open).toBe(1);
  await setHidden(bob, true);
  await expect.poll(() => open).toBe(0);
  await expect(bob.getByTestId('run-status')).toHaveText('finished');

  const node = nodes[2] as string;
  const before = (await commentsOf(node)).length;
  await mutate(E2E_BASE, 'comment.add', { runId, nodeId: node, text: 'written while bob looked elsewhere' });
  await setHidden(bob, false);
  await expect.poll(() => open).toBe(1);
  await expect(badge(bob, node)).toHaveAttribute('data-comments', String(before + 1));
  await bob.context().close();
});
