// /experiments/<id>: one experiment's progress, figures, chart, cells and comparison (components/experiments/page).
import { ExperimentView } from '@/components/experiments/page/ExperimentView';

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExperimentView experimentId={id} />;
}
