// /: start a run, and the list of runs (filtered by ?status=&task=), as far as the person here may
// (components/runs/RunsHome.tsx).
import { RunsHome } from '@/components/runs/RunsHome';
import s from './page.module.css';

export default function HomePage() {
  return (
    <main className={`page ${s.runsPage}`}>
      <RunsHome />
    </main>
  );
}
