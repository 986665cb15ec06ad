import { dropTemplateDatabase } from './scratch-database';

export default async function globalTeardown(): Promise<void> {
  await dropTemplateDatabase();
}
