import { and, eq, lte, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { oidcPayloads } from '../db/schema';
import { serviceClientMetadata } from './service-clients';

/**
 * oidc-provider's storage over the oidc_payloads table, one row per (model, id), written against
 * the documented adapter interface (upstream example/my_adapter.js, lib/adapters/memory_adapter.js).
 * A row past its expiresAt counts as absent; such rows are left for a later sweep (`deleteExpired`).
 */
export class DrizzleAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    readonly model: string,
    private readonly clock: Clock,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.clock.now();
    const values = {
      payload,
      grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
      userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt: typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000) : null,
      // A re-saved model is a new version: it is not consumed unless the payload says so.
      consumedAt: null,
    };
    await this.db
      .insert(oidcPayloads)
      .values({ model: this.model, id, ...values })
      .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: values });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    // Clients beyond the SPA are the service clients (issue 32), read live so a revoked one gets no new token.
    if (this.model === 'Client') return serviceClientMetadata(this.db, id);
    return this.first(eq(oidcPayloads.id, id));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.first(eq(oidcPayloads.userCode, userCode));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.first(eq(oidcPayloads.uid, uid));
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcPayloads)
      .set({ consumedAt: this.clock.now() })
      .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)));
  }

  /** oidc-provider calls this on each token model when a grant is revoked (logout, revocation, code reuse). */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.grantId, grantId)));
  }

  private async first(where: SQL): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.model, this.model), where))
      .limit(1);
    if (!row) return undefined;
    if (row.expiresAt && row.expiresAt.getTime() <= this.clock.now().getTime()) return undefined;
    const payload = row.payload as AdapterPayload;
    // The interface: a consumed model is found with a truthy `consumed` (epoch seconds here).
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }
}

/** The adapter factory oidc-provider's `adapter` option takes: one adapter per model name. */
export function createAdapterFactory(db: Db, clock: Clock): (model: string) => DrizzleAdapter {
  return (model) => new DrizzleAdapter(db, model, clock);
}

/** Deletes expired rows (all models); the provider never needs them again. */
export async function deleteExpired(db: Db, clock: Clock): Promise<void> {
  await db.delete(oidcPayloads).where(lte(oidcPayloads.expiresAt, clock.now()));
}
