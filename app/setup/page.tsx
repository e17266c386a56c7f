// /setup: the first admin of a team server (components/session/SetupForm.tsx).
import { SetupForm } from '@/components/session/SetupForm';

export const metadata = { title: 'Set up · Arborist' };

export default function SetupPage() {
  return <SetupForm />;
}
