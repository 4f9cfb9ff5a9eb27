#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx touchline` works without a build step (it may run from a
// folder it cannot write to); `npm start` and `npm run cli` run the compiled build/ (docs/cli.md).
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
