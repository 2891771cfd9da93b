import { strict as assert } from 'node:assert';
import { porterStem } from '../../../src/core/search/porterStemmer';

/**
 * Porter's (1980) examples for each step, plus words that take several steps, short words and
 * the y rules; expected stems are the algorithm's (e.g. generalization → gener, as in Porter's
 * published vocabulary).
 */
const EXPECTED: Array<[string, string]> = [
  ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'], ['feed', 'feed'], ['agreed', 'agre'],
  ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'], ['troubled', 'troubl'],
  ['sized', 'size'], ['hopping', 'hop'], ['tanned', 'tan'], ['falling', 'fall'], ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'],
  ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'], ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'],
  ['valenci', 'valenc'], ['hesitanci', 'hesit'], ['digitizer', 'digit'], ['conformabli', 'conform'], ['radicalli', 'radic'],
  ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'], ['vietnamization', 'vietnam'], ['predication', 'predic'],
  ['operator', 'oper'], ['feudalism', 'feudal'], ['decisiveness', 'decis'], ['hopefulness', 'hope'], ['callousness', 'callous'],
  ['formaliti', 'formal'], ['sensitiviti', 'sensit'], ['sensibiliti', 'sensibl'], ['triplicate', 'triplic'], ['formative', 'form'],
  ['formalize', 'formal'], ['electriciti', 'electr'], ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'], ['revival', 'reviv'],
  ['allowance', 'allow'], ['inference', 'infer'], ['airliner', 'airlin'], ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'],
  ['defensible', 'defens'], ['irritant', 'irrit'], ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'],
  ['adoption', 'adopt'], ['homologou', 'homolog'], ['communism', 'commun'], ['activate', 'activ'], ['angulariti', 'angular'],
  ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'], ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'],
  ['controll', 'control'], ['roll', 'roll'], ['generalization', 'gener'], ['oscillators', 'oscil'], ['searching', 'search'],
  ['searches', 'search'], ['searched', 'search'], ['dying', 'dy'], ['lying', 'ly'], ['toy', 'toi'], ['syzygy', 'syzygi'], ['yes', 'ye'],
  ['by', 'by'], ['ab', 'ab'], ['a', 'a'], ['is', 'is'], ['sses', 'ss'], ['ies', 'i'], ['eed', 'eed'], ['ied', 'i'],
];

describe('porterStem', () => {
  it('stems as Porter (1980) does, step by step and across steps', () => {
    const wrong = EXPECTED.filter(([word, stem]) => porterStem(word) !== stem).map(([word, stem]) => `${word} → ${porterStem(word)} (expected ${stem})`);
    assert.deepEqual(wrong, []);
  });

  it('leaves text that is not a lower-case word to the rules without failing', () => {
    for (const word of ['', 'x', '123', 'ßing', 'a-b-c', '\u{1F600}ed']) assert.equal(typeof porterStem(word), 'string');
    assert.equal(porterStem('2019s'), '2019');
  });
});
