'use client';
// The home page's panels, by who is here (lib/store pagePermissions over lib/contract/access.ts): the new run
// form and the import drop zone for whoever may create runs, the runs list for users and the local person, and for
// a share link's holder a note with a link to their one run instead of the list. Nothing until the server has said
// who is here (a control appears when it is known to be usable).
// Not responsible for the panels themselves (NewRunForm, RunsTable, ImportDropZone).
import Link from 'next/link';
import { Suspense } from 'react';
import { useSession } from '@/components/session/useSession';
import { pagePermissions } from '@/lib/store/index';
import { ImportDropZone } from './import/ImportDropZone';
import { NewRunForm } from './form/NewRunForm';
import { RunsPanelSkeleton, RunsTable } from './list/RunsTable';

export function RunsHome() {
  const { who } = useSession();
  const allowed = pagePermissions(who);
  if (who === null) return <RunsPanelSkeleton />;
  if (who.kind === 'share') {
    const what = who.runId ? 'run' : 'experiment';
    const href = who.runId
      ? `/runs/${encodeURIComponent(who.runId)}`
      : `/experiments/${encodeURIComponent(who.experimentId ?? '')}`;
    return (
      <section className="panel" data-testid="shared-note">
        <div className="panel-head">
          <h2>
            A{what === 'experiment' ? 'n' : ''} {what} was shared with you
          </h2>
        </div>
        <div className="panel-body">
          <p style={{ margin: 0 }}>
            Your link opens one {what}
            {who.runId ? '' : ' and the runs that are its cells'}, read only. <Link href={href}>Open it</Link>. To see
            other runs, <Link href="/signin">sign in</Link> with an account.
          </p>
        </div>
      </section>
    );
  }
  return (
    <>
      {allowed.createRuns && (
        <section className="panel" aria-labelledby="new-run-heading">
          <div className="panel-head">
            <h2 id="new-run-heading">New run</h2>
          </div>
          <div className="panel-body">
            <NewRunForm />
          </div>
        </section>
      )}
      {/* RunsTable reads the URL's search params: Next renders this fallback until they are known. */}
      {allowed.listRuns && (
        <Suspense fallback={<RunsPanelSkeleton />}>
          <RunsTable />
        </Suspense>
      )}
      {allowed.createRuns && (
        <section className="panel" aria-labelledby="import-heading">
          <div className="panel-head">
            <h2 id="import-heading">Import</h2>
            <span className="field-hint">
              an Arborist export, a Tree-of-Thoughts log (Game of 24 BFS, crosswords DFS) or an llm-reasoners MCTS log
            </span>
          </div>
          <div className="panel-body">
            <ImportDropZone />
          </div>
        </section>
      )}
    </>
  );
}
