import { defineConfig } from 'tsup';
import { frameworkPackage } from '../../tsup.adapter';

export default defineConfig(frameworkPackage);
