// Prisma keeps its last queries with their arguments in memory (whether DEBUG is set or not); forgetQueryHistory lets
// go of them, so a finished run's payloads are not held by the server after it.
import { getLogs } from '@prisma/debug';
import { describe, expect, it } from 'vitest';
import { servicesPerTest } from '../testing/services';
import { forgetQueryHistory } from './query-history';

const testServices = servicesPerTest();
const everything = Number.MAX_SAFE_INTEGER;

describe('forgetQueryHistory', () => {
  it("lets go of the adapter's remembered queries and their arguments", async () => {
    const s = testServices.create();
    const marker = `payload-${'x'.repeat(1_000)}-kept`;
    await s.prisma.$queryRaw`SELECT ${marker} AS "text"`;
    expect(getLogs(everything)).toContain(marker);
    forgetQueryHistory();
    expect(getLogs(everything)).not.toContain(marker);
  });
});
