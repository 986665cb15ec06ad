/**
 * A small, hand-made check of the built-in embedder's choices (SIF a, common-component
 * removal): for each (anchor, related, unrelated) triple of short memory-like texts, the
 * related text should score closer to the anchor. Prints the accuracy and the mean margin
 * cos(anchor, related) − cos(anchor, unrelated) for each model file given, with and without
 * the common component removed.
 *
 *   npx tsc -p libs/local-model/scripts/tsconfig.json
 *   node libs/local-model/scripts/dist/scripts/build-assets.js --sif-a 1e-4 --out /tmp/a1e-4.bin   # one per value
 *   node libs/local-model/scripts/dist/scripts/tune.js [model.bin …]
 *
 * Fifty triples are no benchmark (they are written by hand, and deliberately include unrelated
 * texts that share function words and sentence shape with the anchor); they catch a choice that
 * is clearly worse, which is what they were used for.
 */
import { readFileSync } from 'node:fs';
import { readModelFile } from '../src/embedding/format';
import { cosineSimilarity, defaultModelPath, LocalEmbedder } from '../src/embedding/local-embedder';

export const TRIPLES: ReadonlyArray<readonly [string, string, string]> = [
  [
    'I love drinking espresso in the morning',
    'Coffee is my favourite breakfast drink',
    'The parliament passed a new tax law',
  ],
  [
    'My daughter starts school next week',
    'Our kid begins first grade on Monday',
    'The server needs a new disk next week',
  ],
  [
    'The flight to Paris was delayed by three hours',
    'Our plane to France left late',
    'The meeting about the budget ran three hours',
  ],
  ['I am allergic to peanuts', 'Nuts give me a severe reaction', 'I am excited about the concert'],
  [
    'She plays the violin in an orchestra',
    'He is a cellist in a symphony',
    'She plays tennis at the weekend',
  ],
  [
    'The database query is very slow',
    'SQL performance is bad on the orders table',
    'The river is very wide here',
  ],
  [
    'We adopted a puppy last month',
    'Our new dog is a golden retriever',
    'We adopted a new accounting policy last month',
  ],
  ['He prefers tea over coffee', 'He likes green tea more than espresso', 'He prefers trains over planes'],
  [
    'The stock market fell sharply today',
    'Shares dropped as investors sold',
    'The temperature fell sharply today',
  ],
  ['My favourite food is sushi', 'I really like Japanese fish dishes', 'My favourite sport is basketball'],
  [
    'The patient has a high fever',
    'The sick man has a temperature and needs a doctor',
    'The building has a high roof',
  ],
  [
    'Remind me to call my mother tomorrow',
    'I need to phone mom on Friday',
    'Remind me to renew the car insurance tomorrow',
  ],
  [
    'The team won the championship',
    'They were victorious in the final match',
    'The team moved to a new office',
  ],
  [
    'I am learning to speak Spanish',
    'I take lessons in a foreign language',
    'I am learning to ride a motorcycle',
  ],
  [
    'The rent for the apartment is too expensive',
    'Housing costs in the city are high',
    'The battery of the phone is too weak',
  ],
  ['Our wedding anniversary is in June', 'We got married in the summer', 'Our product launch is in June'],
  [
    'The laptop keeps crashing after the update',
    'My computer freezes since installing the patch',
    'The car keeps stalling on the highway',
  ],
  [
    'He is a vegetarian and does not eat meat',
    'He avoids beef and chicken',
    'He is a pilot and does not drink alcohol',
  ],
  ['It is raining heavily outside', 'There is a storm with lots of rain', 'It is selling well in stores'],
  ['I go jogging every morning', 'Running before work keeps me fit', 'I go shopping every Saturday'],
  [
    'The election results will be announced tonight',
    'Votes are being counted after the poll',
    'The football results will be announced tonight',
  ],
  ['My brother lives in Berlin', 'He has an apartment in Germany', 'My brother works as a nurse'],
  [
    'The contract must be signed by Friday',
    'The agreement deadline is the end of the week',
    'The cake must be baked by Friday',
  ],
  ['I have a headache and feel dizzy', 'My head hurts and I feel unwell', 'I have a bicycle and a car'],
  [
    'The cat is sleeping on the sofa',
    'The kitten naps on the couch',
    'The committee is meeting on the issue',
  ],
  [
    'We need to fix the bug in the login page',
    'Users cannot sign in because of an error',
    'We need to paint the fence in the garden',
  ],
  ['The soup needs more salt', 'The dish tastes bland, add some seasoning', 'The report needs more detail'],
  ['She is pregnant with twins', 'She is expecting two babies', 'She is angry with the neighbours'],
  [
    'Deploy the new version to production',
    'Release the update to the live servers',
    'Move the old furniture to the basement',
  ],
  ['I lost my wallet on the train', 'My purse was stolen during the commute', 'I read my book on the train'],
  [
    'The hotel room had a beautiful view of the sea',
    'Our suite overlooked the ocean',
    'The hospital room had a broken window',
  ],
  [
    'He was promoted to senior engineer',
    'He got a better job title and a raise',
    'He was moved to a different city',
  ],
  [
    'The children are playing in the park',
    'Kids run around on the playground',
    'The musicians are playing in the orchestra',
  ],
  [
    'Please book a table for two at an Italian restaurant',
    'Reserve dinner for us at a pizza place',
    'Please book a room for two at the conference',
  ],
  ['The printer is out of paper', 'We need to refill the printer tray', 'The store is out of milk'],
  [
    'My grandmother turned ninety yesterday',
    'Grandma celebrated her birthday',
    'My laptop turned off yesterday',
  ],
  [
    'I prefer dark mode in every app',
    'Use a black theme for the interface',
    'I prefer window seats on every flight',
  ],
  ['The garden needs watering', 'The plants and flowers are dry', 'The invoice needs paying'],
  [
    'The movie was boring and too long',
    'The film dragged on and I fell asleep',
    'The road was closed and too narrow',
  ],
  ['He broke his leg skiing', 'He was injured on the slopes', 'He broke the record in swimming'],
];

function evaluate(embedder: LocalEmbedder): { accuracy: number; margin: number } {
  let correct = 0;
  let margin = 0;
  for (const [a, r, u] of TRIPLES) {
    const [va, vr, vu] = embedder.embed([a, r, u]);
    const m = cosineSimilarity(va, vr) - cosineSimilarity(va, vu);
    if (m > 0) correct++;
    margin += m;
  }
  return { accuracy: correct / TRIPLES.length, margin: margin / TRIPLES.length };
}

function main(): void {
  const files = process.argv.slice(2);
  for (const file of files.length > 0 ? files : [defaultModelPath()]) {
    for (const removeCommon of [true, false]) {
      const bytes = readFileSync(file);
      const model = readModelFile(bytes);
      if (!removeCommon) model.sections.common.fill(0); // the views share the bytes
      const r = evaluate(LocalEmbedder.fromBytes(bytes));
      console.log(
        `${file} a=${model.header.sif.a} common ${removeCommon ? 'removed' : 'kept   '}: ` +
          `accuracy ${(r.accuracy * 100).toFixed(1)} %, mean margin ${r.margin.toFixed(4)}`,
      );
    }
  }
}

if (require.main === module) main();
