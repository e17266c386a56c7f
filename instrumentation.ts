// Next's start-up hook: the server's services are made before the first request, so the database is migrated,
// runs interrupted by the last shutdown continue, and an empty database gets its demo run. A server that cannot make
// them (an invalid environment: team mode without its secret) stops here with the reason, rather than answering
// every request with an error.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getServices } = await import('./lib/server/index');
    try {
      await getServices();
    } catch (error) {
      console.error(`[arborist] cannot start: ${(error as Error).message}`);
      process.exit(1);
    }
  }
}
