'use client';
// /settings, by who is here: an admin gets the team's people (UsersPanel) and every signed-in user their own API
// keys (ApiKeysPanel). Local mode has no accounts, and a share link's holder has none: each is told so.
// Not responsible for the panels' own work.
import Link from 'next/link';
import { useSession } from '@/components/session/useSession';
import { pagePermissions } from '@/lib/store/index';
import { ApiKeysPanel } from './ApiKeysPanel';
import { UsersPanel } from './UsersPanel';
import s from './Settings.module.css';

export function SettingsView() {
  const { mode, who } = useSession();
  if (mode === null || who === null) return null;
  if (mode === 'local' || who.kind !== 'user') {
    return (
      <main className={`page ${s.page}`}>
        <section className="panel" data-testid="settings-none">
          <div className="panel-head">
            <h2>Settings</h2>
          </div>
          <div className="panel-body">
            <p style={{ margin: 0 }}>
              {mode === 'local'
                ? 'This server runs without accounts (local mode): there are no people or API keys to manage. Start it with ARBORIST_AUTH=1 for a team.'
                : 'Settings belong to an account: sign in with one.'}{' '}
              <Link href="/">Back to the runs</Link>.
            </p>
          </div>
        </section>
      </main>
    );
  }
  return (
    <main className={`page ${s.page}`}>
      {pagePermissions(who).admin && <UsersPanel me={who.id} />}
      <ApiKeysPanel />
    </main>
  );
}
