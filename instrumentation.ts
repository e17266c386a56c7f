// Next's start-up hook: the server's services are made before the first request, so the database is migrated,
// runs interrupted by the last shutdown continue (in a cluster: this instance joins it), and an empty database gets its
// demo run. A server that cannot make them (an invalid environment: team mode without its secret) stops here with the
// reason, rather than answering every request with an error.
// Graceful shutdown: with NEXT_MANUAL_SIG_HANDLE set (lib/server/start.ts sets it for `next start`), Next leaves
// SIGTERM and SIGINT to us: the services drain (health 503, runs handed back or stopped unwritten, streams closed)
// within ARBORIST_SHUTDOWN_MS, then the process exits. Without it Next exits at once on those signals (runs left
// `running` are then recovered: by the next start on SQLite, by another instance's sweep after their lease in a cluster).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getServices, shutdownServices } = await import('./lib/server/index');
    try {
      await getServices();
    } catch (error) {
      console.error(`[arborist] cannot start: ${(error as Error).message}`);
      process.exit(1);
    }
    if (process.env.NEXT_MANUAL_SIG_HANDLE) {
      let signalled = false;
      const onSignal = (signal: NodeJS.Signals) => {
        if (signalled) return; // a second signal while draining changes nothing: the limit still holds
        signalled = true;
        void shutdownServices().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    }
  }
}
