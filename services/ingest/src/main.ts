import './telemetry';
import { JetStreamServer } from '@engram/messaging';
import { exitOnStartupFailure, runService } from '@engram/platform';
import { loadIngestConfig } from './ingest.config';
import { IngestModule } from './ingest.module';

runService({
  name: 'ingest',
  loadConfig: loadIngestConfig,
  module: (config) => IngestModule.register(config),
  http: (config) => ({ port: config.HTTP_PORT, host: config.HTTP_HOST }),
  transport: JetStreamServer,
}).catch(exitOnStartupFailure('ingest'));
