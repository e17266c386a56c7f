// Next's start-up hook: the server's services are made before the first request, so the database is migrated,
// runs interrupted by the last shutdown continue, and an empty database gets its demo run.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { getServices } = await import('./lib/server/index');
    await getServices();
  }
}
