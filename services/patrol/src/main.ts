import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadPatrolConfig } from './patrol.config';
import { PatrolModule } from './patrol.module';

runService({
  name: 'patrol',
  loadConfig: loadPatrolConfig,
  module: (config) => PatrolModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('patrol'));
