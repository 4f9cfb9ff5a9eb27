/**
 * The answers' fingerprint (test/helpers/answers.ts) by hand: record the answers of the real app on
 * the demo world, compare two recordings, or write the committed expectation anew.
 *
 *   node --import tsx bench/answers-fingerprint.ts --update            # test/fixtures/answers-fingerprint.json
 *   node --import tsx bench/answers-fingerprint.ts --out FILE          # a recording of its own
 *   node --import tsx bench/answers-fingerprint.ts --compare A B       # prints every difference
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startTestApp } from '../test/helpers/app.js';
import { ANSWERS_FINGERPRINT, answerDifferences, answersFile, recordAnswers, type Answer } from '../test/helpers/answers.js';

async function record(out: string): Promise<void> {
  const t = await startTestApp();
  try {
    const answers = await recordAnswers(t);
    writeFileSync(out, answersFile(answers));
    console.log(`${answers.length} answers written to ${out}`);
  } finally {
    await t.close();
  }
}

function compare(a: string, b: string): number {
  const before = JSON.parse(readFileSync(a, 'utf8')) as Answer[];
  const differences = answerDifferences(before, JSON.parse(readFileSync(b, 'utf8')) as Answer[]);
  for (const d of differences) console.log(d);
  console.log(`${before.length} answers compared, ${differences.length} differences`);
  return differences.length === 0 ? 0 : 1;
}

const args = parseArgs({ options: { out: { type: 'string' }, update: { type: 'boolean' }, compare: { type: 'boolean' } }, allowPositionals: true });
const [a, b] = args.positionals;
if (args.values.compare && a && b) {
  process.exit(compare(a, b));
} else if (args.values.out || args.values.update) {
  await record(args.values.out ?? ANSWERS_FINGERPRINT);
  process.exit(0);
} else {
  console.error('usage: answers-fingerprint.ts --update | --out FILE | --compare A B');
  process.exit(2);
}
