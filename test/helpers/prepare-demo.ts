// Makes the demo world's test dump, its data folder and its models once, before `.ci/run` starts the two test
// suites side by side, so they do not both fit the same models at once. Usage: node --import tsx test/helpers/prepare-demo.ts
import { demoWorldDir } from './app.js';

const started = performance.now();
const file = await demoWorldDir();
console.log(`demo world dump and models ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${file}`);
