'use client';
// A unified diff drawn as a code review shows it (react-diff-view): a head per file (its path, added, deleted or
// renamed, lines added and removed), line numbers, TypeScript/JavaScript/JSON syntax (refractor), the words that
// changed marked within a line, unified or split
// (a toggle, remembered: useDiffViewType.ts). Colours come from the app's tokens, so light and dark follow the
// system. The diff is model text: react-diff-view renders it as text; a diff it cannot read is shown as plain text.
// Not responsible for where the diff comes from (a node's code_change action, a run's public output) nor for
// applying it (lib/tasks/code, on the server).
import { memo, useMemo } from 'react';
import {
  Decoration,
  Diff,
  Hunk,
  markEdits,
  parseDiff,
  tokenize,
  type FileData,
  type HunkTokens,
  type TokenizeOptions,
} from 'react-diff-view';
import 'react-diff-view/style/index.css';
import { refractor } from 'refractor/core';
import javascript from 'refractor/javascript';
import json from 'refractor/json';
import jsx from 'refractor/jsx';
import tsx from 'refractor/tsx';
import typescript from 'refractor/typescript';
import { asGitDiff, diffSize, languageOf } from '@/lib/layout/index';
import { useDiffViewType } from './useDiffViewType';
import styles from './DiffView.module.css';

// only the grammars a code run's files need (refractor/core has none), so the page bundles a few, not hundreds
for (const grammar of [javascript, typescript, jsx, tsx, json]) refractor.register(grammar);

/**
 * refractor as react-diff-view calls it: its older API gave the highlighted nodes, refractor 5 gives a root holding
 * them. Its output is a tree of text and span nodes that react-diff-view renders as elements: never HTML.
 */
const highlighter = {
  highlight: (text: string, language: string) => refractor.highlight(text, language).children,
} as unknown as Extract<TokenizeOptions, { highlight: true }>['refractor'];

const FILE_TAGS: Partial<Record<FileData['type'], string>> = {
  add: 'new file',
  delete: 'deleted',
  rename: 'renamed',
  copy: 'copied',
};

function readDiff(diff: string): FileData[] | null {
  try {
    const files = parseDiff(asGitDiff(diff), { nearbySequences: 'zip' });
    return files.length > 0 ? files : null;
  } catch {
    return null; // not a diff the parser reads: shown as text
  }
}

export function DiffView({ diff, testId = 'diff-view' }: { diff: string; testId?: string }) {
  const [viewType, setViewType] = useDiffViewType();
  const files = useMemo(() => readDiff(diff), [diff]);
  const size = useMemo(() => diffSize(diff), [diff]);
  if (!files) {
    return (
      <div className={styles.view} data-testid={testId} data-readable="false">
        <p className={styles.unreadable}>Not a diff this view can read; its text as it is:</p>
        <pre className={styles.raw}>{diff || ' '}</pre>
      </div>
    );
  }
  return (
    <div className={styles.view} data-testid={testId} data-view-type={viewType}>
      <div className={styles.bar}>
        <span className={styles.summary}>
          {files.length} file{files.length === 1 ? '' : 's'} · <span className={styles.added}>+{size.added}</span>{' '}
          <span className={styles.removed}>−{size.removed}</span>
        </span>
        <div className={styles.toggle} role="group" aria-label="Diff layout">
          {(['unified', 'split'] as const).map((type) => (
            <button
              key={type}
              type="button"
              className={styles.toggleButton}
              aria-pressed={viewType === type}
              data-testid={`diff-${type}`}
              onClick={() => setViewType(type)}
            >
              {type === 'unified' ? 'Unified' : 'Split'}
            </button>
          ))}
        </div>
      </div>
      {files.map((file, i) => (
        <FileDiff key={`${i}:${file.oldPath}:${file.newPath}`} file={file} viewType={viewType} />
      ))}
    </div>
  );
}

const FileDiff = memo(function FileDiff({ file, viewType }: { file: FileData; viewType: 'unified' | 'split' }) {
  const path = file.type === 'delete' ? file.oldPath : file.newPath;
  const language = languageOf(path);
  const tokens = useMemo<HunkTokens | null>(() => {
    const enhancers = [markEdits(file.hunks, { type: 'block' })];
    try {
      return language
        ? tokenize(file.hunks, { highlight: true, refractor: highlighter, language, enhancers })
        : tokenize(file.hunks, { enhancers });
    } catch {
      return null; // highlighting and the words that changed are niceties: the lines still show without them
    }
  }, [file.hunks, language]);
  const renamed = file.type === 'rename' || (file.oldPath !== file.newPath && file.type === 'copy');
  let added = 0;
  let removed = 0;
  for (const hunk of file.hunks) {
    for (const change of hunk.changes) {
      if (change.type === 'insert') added++;
      else if (change.type === 'delete') removed++;
    }
  }
  const tag = FILE_TAGS[file.type];
  return (
    <section className={styles.file} data-testid="diff-file" data-path={path}>
      <header className={styles.fileHead}>
        <span className={styles.path} title={path}>
          {renamed ? `${file.oldPath} → ${file.newPath}` : path}
        </span>
        {tag && <span className={styles.tag}>{tag}</span>}
        <span className={styles.fileSize}>
          <span className={styles.added}>+{added}</span> <span className={styles.removed}>−{removed}</span>
        </span>
      </header>
      <div className={styles.table}>
        <Diff viewType={viewType} diffType={file.type} hunks={file.hunks} tokens={tokens}>
          {(hunks) =>
            hunks.flatMap((hunk) => [
              <Decoration key={`d${hunk.content}`}>
                <span className={styles.hunkHead}>{hunk.content}</span>
              </Decoration>,
              <Hunk key={`h${hunk.content}`} hunk={hunk} />,
            ])
          }
        </Diff>
      </div>
    </section>
  );
});
