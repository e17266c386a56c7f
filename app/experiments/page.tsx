// /experiments: start an experiment, and the list of experiments (components/experiments/ExperimentsHome.tsx).
import { ExperimentsHome } from '@/components/experiments/ExperimentsHome';

export default function ExperimentsPage() {
  return (
    <main className="page" style={{ maxWidth: 1560 }}>
      <ExperimentsHome />
    </main>
  );
}
