'use client';
// /experiments: the form that starts an experiment, for whoever may create runs (an experiment's cells are runs),
// and the list of experiments for whoever may list runs. Nothing until the server has said who is here.
// Not responsible for the panels themselves (form/NewExperimentForm, list/ExperimentsTable).
import Link from 'next/link';
import { useSession } from '@/components/session/useSession';
import { pagePermissions } from '@/lib/store/index';
import { NewExperimentForm } from './form/NewExperimentForm';
import { ExperimentsTable } from './list/ExperimentsTable';

export function ExperimentsHome() {
  const { who } = useSession();
  const allowed = pagePermissions(who);
  if (who === null) return <p className="empty">Loading…</p>;
  if (!allowed.listRuns) {
    return (
      <p className="empty">
        Experiments are for signed-in people. <Link href="/signin">Sign in</Link>.
      </p>
    );
  }
  return (
    <>
      {allowed.createRuns && (
        <section className="panel" aria-labelledby="new-experiment-heading">
          <div className="panel-head">
            <h2 id="new-experiment-heading">New experiment</h2>
            <span className="field-hint">
              every item x every configuration x repetitions, each cell an ordinary run
            </span>
          </div>
          <div className="panel-body">
            <NewExperimentForm />
          </div>
        </section>
      )}
      <ExperimentsTable />
    </>
  );
}
