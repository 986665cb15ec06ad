import { nkeys } from '@nats-io/transport-node';
import { parse } from 'yaml';
import { ENGRAM_ACCOUNT, runtimeAccount, runtimeSubjects } from '@engram/contracts';
import { renderRuntimeAccountValues } from '../topology/nats-config';
import { runtimeKey } from './nats-user.command';

describe('engram nats-user', () => {
  it('makes a user key pair whose seed signs as the public key it prints', () => {
    const key = runtimeKey();
    expect(key.publicKey).toMatch(/^U[A-Z2-7]{55}$/);
    expect(nkeys.fromSeed(new TextEncoder().encode(key.seed!)).getPublicKey()).toBe(key.publicKey);
  });

  it('takes a runtime’s own public user key, and refuses anything else', () => {
    const own = nkeys.createUser().getPublicKey();
    expect(runtimeKey(own)).toEqual({ publicKey: own });
    const corrupted = `${own.slice(0, -1)}${own.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [nkeys.createAccount().getPublicKey(), corrupted, 'U123'])
      expect(() => runtimeKey(wrong)).toThrow('--nkey must be a user');
  });

  it('prints Helm values that add the tenant’s account, importing its subjects from ENGRAM', () => {
    const values = parse(renderRuntimeAccountValues('acme', 'UKEY')) as {
      config: { merge: { accounts: Record<string, { imports: Array<{ service: unknown }> }> } };
    };
    const accounts = values.config.merge.accounts;
    expect(Object.keys(accounts)).toEqual([runtimeAccount('acme')]);
    expect(accounts[runtimeAccount('acme')]!.imports.map((i) => i.service)).toEqual(
      runtimeSubjects('acme').map((subject) => ({ account: ENGRAM_ACCOUNT, subject })),
    );
  });
});
