'use client';
// The diff view, loaded when a code change or a code run's patch is first shown: react-diff-view and refractor's
// grammars are only for code runs, so every other run page goes without them (`npx tsx lib/bench/bundle.ts`).
// Not responsible for drawing the diff (DiffView.tsx).
import dynamic from 'next/dynamic';
import styles from './DiffView.module.css';

export const DiffView = dynamic(() => import('./DiffView').then((m) => m.DiffView), {
  ssr: false,
  loading: () => <p className={styles.loading}>Loading the diff…</p>,
});
