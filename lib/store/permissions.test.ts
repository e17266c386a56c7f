// The page's flags follow the one rule table: a viewer and a share link's holder get no steering, a member
// deletes and shares only their own runs, whole prompts follow the link, and an unknown principal gets nothing.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../contract/access';
import { pagePermissions, runPermissions } from './permissions';

const member: Principal = { kind: 'user', id: 'u-m', email: 'm@x.io', name: 'M', role: 'member' };
const viewer: Principal = { kind: 'user', id: 'u-v', email: 'v@x.io', name: 'V', role: 'viewer' };
const admin: Principal = { kind: 'user', id: 'u-a', email: 'a@x.io', name: 'A', role: 'admin' };
const link = (allowPrompts: boolean): Principal => ({
  kind: 'share',
  linkId: 'l1',
  runId: 'r1',
  experimentId: null,
  allowPrompts,
});

describe('runPermissions', () => {
  it('lets the local person do everything', () => {
    expect(Object.values(runPermissions({ kind: 'local' }, 'r1', null)).every(Boolean)).toBe(true);
  });

  it('gives a viewer reading only', () => {
    expect(runPermissions(viewer, 'r1', { id: 'r1', ownerId: 'u-v' })).toEqual({
      read: true,
      readPrompts: true,
      steer: false,
      fork: false,
      discuss: false,
      share: false,
      delete: false,
    });
  });

  it("lets a member steer and discuss anyone's run but share and delete only their own", () => {
    const theirs = runPermissions(member, 'r1', { id: 'r1', ownerId: 'u-other' });
    expect([theirs.steer, theirs.fork, theirs.discuss, theirs.share, theirs.delete]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    const own = runPermissions(member, 'r1', { id: 'r1', ownerId: 'u-m' });
    expect([own.share, own.delete]).toEqual([true, true]);
  });

  it('waits for the run record before offering owner-only actions', () => {
    const unknown = runPermissions(member, 'r1', null);
    expect([unknown.steer, unknown.share, unknown.delete]).toEqual([true, false, false]);
    expect(runPermissions(admin, 'r1', null).delete).toBe(true);
  });

  it("gives a share link's holder its one run, with prompts only when the link allows them", () => {
    expect(runPermissions(link(false), 'r1', { id: 'r1', ownerId: null })).toMatchObject({
      read: true,
      readPrompts: false,
      steer: false,
      discuss: false,
    });
    expect(runPermissions(link(true), 'r1', { id: 'r1', ownerId: null }).readPrompts).toBe(true);
    expect(runPermissions(link(true), 'r2', { id: 'r2', ownerId: null }).read).toBe(false);
  });

  it('allows nothing while the principal is unknown, or to nobody', () => {
    expect(Object.values(runPermissions(null, 'r1', null)).some(Boolean)).toBe(false);
    expect(Object.values(runPermissions({ kind: 'anonymous' }, 'r1', null)).some(Boolean)).toBe(false);
  });
});

describe('pagePermissions', () => {
  it('offers new runs to members, the list to users, users to admins', () => {
    expect(pagePermissions(member)).toEqual({ createRuns: true, listRuns: true, admin: false });
    expect(pagePermissions(viewer)).toEqual({ createRuns: false, listRuns: true, admin: false });
    expect(pagePermissions(admin)).toEqual({ createRuns: true, listRuns: true, admin: true });
    expect(pagePermissions(link(true))).toEqual({ createRuns: false, listRuns: false, admin: false });
    expect(pagePermissions(null)).toEqual({ createRuns: false, listRuns: false, admin: false });
  });
});
