import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadEmbedderConfig } from './embedder.config';
import { EmbedderModule } from './embedder.module';

runService({
  name: 'embedder',
  loadConfig: loadEmbedderConfig,
  module: (config) => EmbedderModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('embedder'));
