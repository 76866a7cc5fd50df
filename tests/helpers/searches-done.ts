import type { FastifyInstance } from 'fastify';
import type { SearchJob } from '../../core/schemas/searches';

/** Waits until every queued database search (approvals) has finished, as an administrator's searches page reports them. */
export async function searchesDone(app: FastifyInstance, adminToken: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const res = await app.inject({ method: 'GET', url: '/api/organizations/all/searches', headers: { authorization: `Bearer ${adminToken}` } });
    const jobs = (res.json() as { items: SearchJob[] }).items;
    if (jobs.every((j) => j.status === 'done' || j.status === 'failed')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('searches did not finish');
}
