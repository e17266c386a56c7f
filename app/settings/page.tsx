// /settings: the team's people (admins) and one's own API keys (components/settings).
import { SettingsView } from '@/components/settings/SettingsView';

export const metadata = { title: 'Settings · Arborist' };

export default function SettingsPage() {
  return <SettingsView />;
}
