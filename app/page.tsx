// /: start a run, and the list of runs.
import { NewRunForm } from '@/components/runs/NewRunForm';
import { RunsTable } from '@/components/runs/RunsTable';

export default function HomePage() {
  return (
    <main className="page">
      <section className="panel">
        <div className="panel-head">
          <h2>New run</h2>
        </div>
        <div className="panel-body">
          <NewRunForm />
        </div>
      </section>
      <section className="panel">
        <div className="panel-head">
          <h2>Runs</h2>
        </div>
        <RunsTable />
      </section>
    </main>
  );
}
