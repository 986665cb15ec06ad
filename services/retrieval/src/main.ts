import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadRetrievalConfig } from './retrieval.config';
import { RetrievalModule } from './retrieval.module';

runService({
  name: 'retrieval',
  loadConfig: loadRetrievalConfig,
  module: (config) => RetrievalModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('retrieval'));
