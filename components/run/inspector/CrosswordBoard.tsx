'use client';
// A node of an imported crosswords run (lib/formats/tot-crosswords.ts) in the inspector: its 5x5 board, each cell
// marked against the solution when the run has one, the ten clues with the answer the board holds for each (the
// clues a move on the path filled are highlighted, the node's own move most), and the model's verdict with the
// letter and word scores. Renders nothing for a node of any other run. Every text (clues, moves, letters) comes from
// an imported file and is rendered as text.
// Not responsible for reading the log (lib/formats) or the board's rules (lib/contract/crossword.ts).
import {
  BLANK,
  boardAnswers,
  CLUE_IDS,
  clueCells,
  CROSSWORD_SIZE,
  parseMove,
  readCrosswordConfig,
  readCrosswordNode,
  type ClueId,
} from '@/lib/contract/crossword';
import type { ThoughtNode } from '@/lib/engine/index';
import { useRunStore } from '../page/RunStoreContext';
import { Section } from './sections';
import s from './CrosswordBoard.module.css';

const ACROSS = CLUE_IDS.slice(0, CROSSWORD_SIZE);
const DOWN = CLUE_IDS.slice(CROSSWORD_SIZE);

export function CrosswordBoard({ node }: { node: ThoughtNode }) {
  const external = useRunStore((state) => state.tree.external);
  const config = readCrosswordConfig(external?.config);
  const state = readCrosswordNode(node.metadata);
  if (!config || !state) return null;

  const board = state.board.join('').split('');
  const solution = config.solution?.join('').split('') ?? null;
  const answers = boardAnswers(board);
  const solutionAnswers = solution ? boardAnswers(solution) : null;
  const moves = state.actions.flatMap((text) => parseMove(text) ?? []);
  const filled = new Set<ClueId>(moves.map((m) => m.clue));
  const current = node.parentId !== null ? (moves[moves.length - 1]?.clue ?? null) : null;
  const currentCells = new Set(current ? clueCells(current) : []);
  const { sure, maybe, impossible, r_letter: rLetter, r_word: rWord } = node.scores;

  const cellClass = (i: number) => {
    const letter = board[i] as string;
    const classes = [s.cell];
    if (letter === BLANK) classes.push(s.blank);
    else if (solution) classes.push(letter === solution[i] ? s.right : s.wrong);
    if (currentCells.has(i)) classes.push(s.current);
    return classes.join(' ');
  };

  const clueRow = (id: ClueId) => {
    const answer = answers[CLUE_IDS.indexOf(id)] as string;
    const right = solutionAnswers ? answer === solutionAnswers[CLUE_IDS.indexOf(id)] : null;
    const classes = [s.clue, filled.has(id) ? s.filled : '', id === current ? s.currentClue : ''];
    return (
      <li
        key={id}
        className={classes.filter(Boolean).join(' ')}
        data-testid="crossword-clue"
        data-clue={id}
        data-filled={filled.has(id)}
        data-current={id === current}
      >
        <span className={s.clueId}>{id}</span>
        <span className={s.clueText}>{config.clues[id]}</span>
        <span
          className={s.answer}
          title={right === null ? undefined : right ? 'the solution’s word' : 'not the solution’s word'}
        >
          {answer.split('').join(' ')}
          {right && <span className={s.tick}> ✓</span>}
        </span>
      </li>
    );
  };

  const verdict = [
    typeof sure === 'number' && `sure ${sure}`,
    typeof maybe === 'number' && `maybe ${maybe}`,
    typeof impossible === 'number' && `impossible ${impossible}`,
  ].filter(Boolean);
  const letters = typeof rLetter === 'number' ? Math.round(rLetter * 25) : null;
  const words = typeof rWord === 'number' ? Math.round(rWord * 10) : null;

  return (
    <Section
      title="Crossword"
      aside={current ? <span className={s.move}>{state.actions[state.actions.length - 1]}</span> : 'the empty board'}
      testId="inspector-crossword"
    >
      <div className={s.top}>
        <div className={s.gridWrap}>
          <span aria-hidden="true" />
          {DOWN.map((id) => (
            <span key={id} className={s.axis}>
              {id}
            </span>
          ))}
          {ACROSS.map((id, r) => (
            <div key={id} className={s.gridRow}>
              <span className={s.axis}>{id}</span>
              {board.slice(r * CROSSWORD_SIZE, (r + 1) * CROSSWORD_SIZE).map((letter, c) => {
                const i = r * CROSSWORD_SIZE + c;
                return (
                  <span key={i} className={cellClass(i)} data-testid="crossword-cell">
                    {letter === BLANK ? '' : letter}
                  </span>
                );
              })}
            </div>
          ))}
        </div>
        <dl className={s.facts}>
          {verdict.length > 0 && (
            <div>
              <dt>model’s verdict</dt>
              <dd data-testid="crossword-verdict" className={impossible ? s.impossible : undefined}>
                {verdict.join(' · ')}
              </dd>
            </div>
          )}
          {letters !== null && (
            <div>
              <dt>letters right</dt>
              <dd data-testid="crossword-letters">{letters}/25</dd>
            </div>
          )}
          {words !== null && (
            <div>
              <dt>words right</dt>
              <dd data-testid="crossword-words">{words}/10</dd>
            </div>
          )}
          {solution && (
            <div className={s.legend}>
              <span className={`${s.swatch} ${s.right}`} /> the solution’s letter{' '}
              <span className={`${s.swatch} ${s.wrong}`} /> not
            </div>
          )}
        </dl>
      </div>
      <div className={s.clues}>
        <h4 className={s.cluesTitle}>Across</h4>
        <ol className={s.clueList}>{ACROSS.map(clueRow)}</ol>
        <h4 className={s.cluesTitle}>Down</h4>
        <ol className={s.clueList}>{DOWN.map(clueRow)}</ol>
      </div>
    </Section>
  );
}
