// /: start a run, and the list of runs (filtered by ?status=&task=).
import { Suspense } from 'react';
import { ImportDropZone } from '@/components/runs/ImportDropZone';
import { NewRunForm } from '@/components/runs/NewRunForm';
import { RunsPanelSkeleton, RunsTable } from '@/components/runs/RunsTable';
import s from './page.module.css';

export default function HomePage() {
  return (
    <main className={`page ${s.runsPage}`}>
      <section className="panel" aria-labelledby="new-run-heading">
        <div className="panel-head">
          <h2 id="new-run-heading">New run</h2>
        </div>
        <div className="panel-body">
          <NewRunForm />
        </div>
      </section>
      {/* RunsTable reads the URL's search params: Next renders this fallback until they are known. */}
      <Suspense fallback={<RunsPanelSkeleton />}>
        <RunsTable />
      </Suspense>
      <section className="panel" aria-labelledby="import-heading">
        <div className="panel-head">
          <h2 id="import-heading">Import</h2>
          <span className="field-hint">an Arborist export, or a Tree-of-Thoughts log (game24 BFS) of many games</span>
        </div>
        <div className="panel-body">
          <ImportDropZone />
        </div>
      </section>
    </main>
  );
}
