import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { bundleBudget } from './bundle-budget.ts';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), bundleBudget({ routePages: [/\/pages\/RoomPage\.tsx$/] })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // the real limit is bundleBudget's (initial JS, gzipped); this one only warns about raw chunk size
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
});
