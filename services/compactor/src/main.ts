import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadCompactorConfig } from './compactor.config';
import { CompactorModule } from './compactor.module';

runService({
  name: 'compactor',
  loadConfig: loadCompactorConfig,
  module: (config) => CompactorModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('compactor'));
