'use client';
// The browser's providers: React Query and the typed tRPC client. The actor name (who steers) is read per request.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { makeTrpcClient, TRPCProvider } from '@/lib/trpc/index';

export const ACTOR_KEY = 'arborist.actor';

function readActor(): string {
  try {
    return window.localStorage.getItem(ACTOR_KEY) ?? 'person';
  } catch {
    return 'person';
  }
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 2_000, refetchOnWindowFocus: false, retry: 1 } } }),
  );
  const [trpcClient] = useState(() => makeTrpcClient(readActor));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
