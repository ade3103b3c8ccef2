/**
 * `npm run test:cluster`: the cluster under load with its primary and an instance killed, and the
 * point-in-time restore drill (apps/server/test/cluster/run.ts, where the checks are described).
 */
await import('../apps/server/test/cluster/run.ts');
