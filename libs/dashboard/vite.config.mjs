// @ts-check
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** Built into dist/, which the api serves at / (services/api/src/dashboard). */
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
