/**
 * The run policy on its own (the routers' tests show it through the API): who may point a code run at a folder, who
 * may use a custom model URL, and how the daily budget caps and refuses, on real SQLite.
 */
import { describe, expect, it } from 'vitest';
import type { ModelSpec } from '../../contract/model-spec';
import { createRun } from '../run-log/run-rows';
import { sampleRunInput, sharedTestDb } from '../testing/db';
import {
  admitNewRun,
  budgetedConfig,
  type Caller,
  checkGoalAllowed,
  checkModelAllowed,
  checkResumeAllowed,
  type PolicyEnv,
} from './policy';

const member: Caller = { team: true, admin: false, userId: 'u-member' };
const admin: Caller = { team: true, admin: true, userId: 'u-admin' };
const local: Caller = { team: false, admin: true, userId: null };
const folderGoal = { taskId: 'code', goal: 'project: /srv/app\nchange: rename total to sum' };
const benchGoal = { taskId: 'code', goal: 'project: bench/clamp-range' };
const customModel: ModelSpec = {
  provider: 'openai',
  baseUrlPreset: 'custom',
  baseURL: 'http://10.0.0.5:8000/v1',
  model: 'm',
};
const env = (budget?: number): PolicyEnv => ({ ARBORIST_MODEL_SERVERS: [], ARBORIST_DAILY_BUDGET_USD: budget });
const NOW = new Date('2026-12-01T12:00:00Z');

describe('the run policy', () => {
  const db = sharedTestDb('sqlite');

  it('leaves a code run on a server folder to admins; a bench project is anyone’s', () => {
    expect(() => checkGoalAllowed(member, folderGoal)).toThrow(/only an admin may point a code run at a folder/);
    expect(() => checkGoalAllowed(admin, folderGoal)).not.toThrow();
    expect(() => checkGoalAllowed(local, folderGoal)).not.toThrow();
    expect(() => checkGoalAllowed(member, benchGoal)).not.toThrow();
  });

  it('refuses a member a custom model URL in team mode, and a private address to anyone there', async () => {
    await expect(checkModelAllowed(member, customModel, { env: env() })).rejects.toMatchObject({
      name: 'ForbiddenError',
    });
    await expect(checkModelAllowed(admin, customModel, { env: env() })).rejects.toThrow();
    await expect(checkModelAllowed(local, customModel, { env: env() })).resolves.toBeUndefined();
  });

  it("caps a new run's cost at what is left of the caller's day, and refuses when nothing is", async () => {
    await createRun(db.prisma, sampleRunInput('spent-today', { createdAt: new Date('2026-12-01T08:00:00Z') }));
    await db.prisma.run.update({ where: { id: 'spent-today' }, data: { ownerId: member.userId, cost: 1.5 } });
    const options = { env: env(2), now: NOW };
    expect(await budgetedConfig(db.prisma, member, { maxCostUsd: null }, options)).toEqual({ maxCostUsd: 0.5 });
    expect(await budgetedConfig(db.prisma, member, { maxCostUsd: 0.2 }, options)).toEqual({ maxCostUsd: 0.2 });
    // no user, no budget: local mode's runs are uncapped
    expect(await budgetedConfig(db.prisma, local, { maxCostUsd: null }, options)).toEqual({ maxCostUsd: null });
    const spent = { env: env(1.5), now: NOW };
    await expect(budgetedConfig(db.prisma, member, {}, spent)).rejects.toThrow(/today's model budget is spent/);
    await expect(checkResumeAllowed(db.prisma, { ownerId: member.userId }, spent)).rejects.toThrow(/budget is spent/);
    await expect(checkResumeAllowed(db.prisma, { ownerId: null }, spent)).resolves.toBeUndefined();
  });

  it('admits a new run only when goal, model and budget all pass', async () => {
    const run = { ...benchGoal, model: { provider: 'simulated', seed: 1 } as ModelSpec, config: {} };
    expect(await admitNewRun(db.prisma, member, run, { env: env(), now: NOW })).toEqual({});
    await expect(admitNewRun(db.prisma, member, { ...run, ...folderGoal }, { env: env() })).rejects.toThrow(/admin/);
    await expect(admitNewRun(db.prisma, member, { ...run, model: customModel }, { env: env() })).rejects.toThrow();
  });
});
