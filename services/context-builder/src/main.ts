import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadContextBuilderConfig } from './context-builder.config';
import { ContextBuilderModule } from './context-builder.module';

runService({
  name: 'context-builder',
  loadConfig: loadContextBuilderConfig,
  module: (config) => ContextBuilderModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('context-builder'));
