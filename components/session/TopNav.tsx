'use client';
// The top bar's links between the app's lists: Runs (/) and Experiments (/experiments), the current one marked.
// Not responsible for who may see what (each page says so itself).
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/', label: 'Runs', current: (path: string) => path === '/' || path.startsWith('/runs') },
  { href: '/experiments', label: 'Experiments', current: (path: string) => path.startsWith('/experiments') },
];

export function TopNav() {
  const pathname = usePathname();
  return (
    <nav className="topnav" aria-label="Main">
      {LINKS.map((l) => (
        <Link
          key={l.href}
          href={l.href}
          aria-current={l.current(pathname) ? 'page' : undefined}
          data-testid={`nav-${l.label.toLowerCase()}`}
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
