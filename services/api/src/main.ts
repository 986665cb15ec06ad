import './telemetry';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadApiConfig } from './api.config';
import { ApiModule } from './api.module';

runService({
  name: 'api',
  loadConfig: loadApiConfig,
  module: (config) => ApiModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  // No transport: the api answers HTTP and calls the RPCs; it consumes nothing from NATS.
}).catch(exitOnStartupFailure('api'));
