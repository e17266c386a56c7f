// The page frame: styles, providers and the top bar (with who is signed in, in team mode: SessionBar). No fonts from the network (none is reachable offline).
import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import '@xyflow/react/dist/style.css';
import './globals.css';
import { SessionBar } from '@/components/session/SessionBar';
import { TopNav } from '@/components/session/TopNav';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: 'Arborist',
  description: 'A visual debugger for tree-search reasoning with language models',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <header className="topbar">
            <Link href="/" className="brand">
              <img src="/favicon.svg" alt="" width={20} height={20} />
              Arborist
            </Link>
            <span className="topbar-note">Tree-of-Thought debugger</span>
            <TopNav />
            <SessionBar />
          </header>
          {children}
        </Providers>
      </body>
    </html>
  );
}
