import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
async function main() {
  const task = getTaskEntry('code').task;
  const [id, seed] = [process.argv[2] ?? 'parse-duration', Number(process.argv[3] ?? 1)];
  const r = await new ThoughtTreeExecutor().explore({ name: 't', model: createSimulatedModel({ seed }) }, `project: bench/${id}`, { task });
  for (const id of r.tree.nodeOrder) {
    const n = r.tree.nodes[id]!;
    console.log(id, n.depth, n.status, n.score ? JSON.stringify({c:n.score.confidence,p:n.score.progress,comp:n.score.composite}) : '', (n.branch?.thought ?? '').slice(0, 60), '|', n.result?.response ?? '', '|', (n.verification?.trace ?? n.failureReason ?? '').split('\n')[0]);
  }
  console.log(r.finishReason, r.tree.finishDetail, r.verified);
}
void main();
