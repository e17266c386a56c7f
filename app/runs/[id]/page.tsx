// /runs/<id>: the live tree of one run.
import { RunView } from '@/components/run/page/RunView';

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunView runId={id} />;
}
