import { defineConfig } from 'tsup';
import { publishedPackage } from '../../tsup.published';

export default defineConfig(publishedPackage);
