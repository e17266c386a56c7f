// Sign-in's `next` never leaves this site, the sign-in address brings a person back to where they were, a link's
// state reads revoked before expired, and the expiry field takes whole days within bounds only.
import { describe, expect, it } from 'vitest';
import { isPublicPath, parseShareDays, safeNextPath, shareLinkState, signInPath } from './session';

describe('safeNextPath', () => {
  it('keeps a path of this site with its query', () => {
    expect(safeNextPath('/runs/abc?step=4&node=n1')).toBe('/runs/abc?step=4&node=n1');
    expect(safeNextPath('/settings')).toBe('/settings');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '/\t/evil.example',
    'runs/abc',
    '',
    null,
    undefined,
  ])('sends %j home instead', (raw) => {
    expect(safeNextPath(raw)).toBe('/');
  });
});

describe('signInPath', () => {
  it('asks to come back to the page and its query', () => {
    expect(signInPath('/runs/r1', '?step=3')).toBe('/signin?next=%2Fruns%2Fr1%3Fstep%3D3');
    expect(safeNextPath(decodeURIComponent(signInPath('/runs/r1', 'step=3').split('next=')[1]!))).toBe(
      '/runs/r1?step=3',
    );
  });

  it('needs no next for the home page', () => {
    expect(signInPath('/', '')).toBe('/signin');
  });
});

describe('isPublicPath', () => {
  it('knows sign-in and setup, nothing else', () => {
    expect(isPublicPath('/signin')).toBe(true);
    expect(isPublicPath('/setup')).toBe(true);
    expect(isPublicPath('/settings')).toBe(false);
    expect(isPublicPath('/signing')).toBe(false);
  });
});

describe('shareLinkState', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('reads active, expired and revoked', () => {
    expect(shareLinkState({ expiresAt: '2026-06-02T00:00:00Z', revokedAt: null }, now)).toBe('active');
    expect(shareLinkState({ expiresAt: new Date('2026-05-30T00:00:00Z'), revokedAt: null }, now)).toBe('expired');
    expect(shareLinkState({ expiresAt: '2026-05-30T00:00:00Z', revokedAt: '2026-05-29T00:00:00Z' }, now)).toBe(
      'revoked',
    );
  });
});

describe('parseShareDays', () => {
  it('takes whole days from 1 to 90', () => {
    expect(parseShareDays(' 7 ')).toEqual({ days: 7 });
    expect(parseShareDays('90')).toEqual({ days: 90 });
  });
  it.each(['0', '91', '2.5', '', 'week'])('refuses %j', (text) => {
    expect(parseShareDays(text)).toHaveProperty('error');
  });
});
