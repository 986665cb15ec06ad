import { natsServerBinary } from './nats-server';
import { prepareTemplateDatabase } from './scratch-database';

/** Once per `jest` run, before the integration and end-to-end suites. */
export default async function globalSetup(): Promise<void> {
  natsServerBinary();
  await prepareTemplateDatabase();
}
