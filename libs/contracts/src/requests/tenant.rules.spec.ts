import { create } from '@bufbuild/protobuf';
import { Rpcs } from '../rpcs';
import { checkRequest } from './request-rules';

describe('mem.rpc.tenant.settings rules', () => {
  it('accept a get, which has no fields', () => {
    expect(checkRequest(Rpcs.tenantSettingsGet, create(Rpcs.tenantSettingsGet.request))).toEqual([]);
  });

  it('accept a set that sets memoryEnabled, either way, and refuse a set of nothing', () => {
    const set = (memoryEnabled?: boolean) =>
      checkRequest(
        Rpcs.tenantSettingsUpdate,
        create(Rpcs.tenantSettingsUpdate.request, memoryEnabled === undefined ? {} : { memoryEnabled }),
      );
    expect(set(false)).toEqual([]);
    expect(set(true)).toEqual([]);
    expect(set()).toEqual([
      { field: 'memoryEnabled', description: 'memoryEnabled is required: it is the setting a set sets' },
    ]);
  });
});
