import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadGertyConfig } from './gerty.config';
import { GertyModule } from './gerty.module';

runService({
  name: 'gerty',
  loadConfig: loadGertyConfig,
  module: (config) => GertyModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('gerty'));
