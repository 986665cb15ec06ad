import type { INestApplication } from '@nestjs/common';
import { JetStreamServer } from './jetstream.server';

/**
 * Starts a Nest application's handlers on the JetStream transport: consumers
 * pulling, RPCs answering. For applications started without runService (tests).
 */
export async function listenOnJetStream<T extends INestApplication>(app: T): Promise<T> {
  app.connectMicroservice({ strategy: app.get(JetStreamServer) });
  await app.init();
  await app.startAllMicroservices();
  return app;
}
