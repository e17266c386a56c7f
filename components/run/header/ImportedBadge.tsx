'use client';
// The run header's mark for an imported run: "imported" and from what (the file, or the run an export came from),
// read from Run.importTag by the one definition of the tag (lib/contract/import-tag.ts); the whole tag and the time
// are in its title. Renders nothing for a run made here. Not responsible for the run's details (inspector).
import { describeImportTag } from '@/lib/contract/import-tag';
import styles from './ImportedBadge.module.css';

export function ImportedBadge({ tag }: { tag: string | null | undefined }) {
  if (!tag) return null;
  const origin = describeImportTag(tag);
  const title = `Imported from ${origin.what} ${origin.source}${origin.at ? ` on ${origin.at}` : ''} (tag ${tag})`;
  return (
    <span className={`badge st-pending ${styles.imported}`} data-testid="run-imported" title={title}>
      imported: <span className={styles.source}>{origin.source}</span>
    </span>
  );
}
