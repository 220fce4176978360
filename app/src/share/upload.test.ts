import { describe, expect, it, vi } from 'vitest';
import * as engineErrors from '../engine/errors';
import type { Scenario, ValidationError } from '../engine/types';
import { MAX_NOTICES } from './sanitize';
import { MAX_UPLOAD_BYTES } from './scenarioFile';
import { engineDefaults } from './testing/defaults';
import { answerUpload, checkUploadFile, checkUploadText, type FromUploadWorker, type ToUploadWorker } from './upload';
import { checkUploadInWorker, type UploadWorkerLike } from './uploadClient';

/** The engine's rules for what these tests upload: hosts required, known parameters `a` and `b`, rtt 0…1000 ms. */
function engineLike(counts = { asked: 0, reported: 0 }) {
  const validate = async (s: Scenario): Promise<ValidationError[]> => {
    counts.asked++;
    const e: ValidationError[] = [];
    if (!Array.isArray(s.hosts)) e.push({ field: '(document)', value: '', message: 'missing field `hosts`' });
    else {
      if (!(s.rtt_ms >= 0 && s.rtt_ms <= 1000)) e.push({ field: 'rtt_ms', value: String(s.rtt_ms), message: 'must be between 0 and 1000 ms' });
      s.hosts.forEach((h, hi) =>
        h.flows.forEach((f, fi) => {
          for (const k of Object.keys(f.params))
            if (k !== 'a' && k !== 'b') e.push({ field: `hosts[${hi}].flows[${fi}].params.${k}`, value: String(f.params[k]), message: `is not a parameter of ${f.algorithm}; known: a, b` });
        }),
      );
    }
    counts.reported += e.length;
    return e;
  };
  return { validate, counts };
}

/** Issue 28: a 979 KB scenario file (under the 1 MB cap) with 90 000 unknown parameters. */
function hostileText(unknown = 90_000): string {
  const s = engineDefaults();
  s.hosts[0].flows[0].params = Object.fromEntries(Array.from({ length: unknown }, (_, i) => [`p${String(i).padStart(5, '0')}`, 1]));
  return JSON.stringify(s);
}

describe('checkUploadText', () => {
  const d = engineDefaults();

  it('a valid file loads as it is, with nothing to list', async () => {
    const s = { ...d, rtt_ms: 90 };
    const out = await checkUploadText(JSON.stringify(s), 'good.json', d, engineLike().validate);
    expect(out).toEqual({ scenario: s, notices: [], problems: null, status: 'Loaded good.json.' });
  });

  it('names each rejected field and loads the rest', async () => {
    const out = await checkUploadText(JSON.stringify({ ...d, rtt_ms: 5000 }), 'bad.json', d, engineLike().validate);
    expect(out.scenario).toEqual(d);
    expect(out.problems).toEqual({ title: 'The engine rejected these fields of the upload; their defaults were used:', items: ['rtt_ms = 5000: must be between 0 and 1000 ms'] });
    expect(out.notices).toEqual(['Ignored rtt_ms = 5000: must be between 0 and 1000 ms in the upload; using 30.']);
    expect(out.status).toBe('Loaded bad.json with defaults for the field listed.');
  });

  it('90 000 unknown parameters in 979 KB: loaded without them, 20 listed and the rest counted, the engine asked twice', async () => {
    const text = hostileText();
    expect(text.length).toBeGreaterThan(970_000);
    expect(text.length).toBeLessThan(MAX_UPLOAD_BYTES);
    const format = vi.spyOn(engineErrors, 'formatValidationError');
    format.mockClear();
    const { validate, counts } = engineLike();
    const out = await checkUploadText(text, 'hostile.json', d, validate);
    // Counted, not timed: the engine lists the 90 000 once, and only the
    // lines shown are written (the notices and the problem list).
    expect(counts).toEqual({ asked: 2, reported: 90_000 });
    expect(format.mock.calls.length).toBe(2 * MAX_NOTICES);
    format.mockRestore();
    expect(out.scenario).toEqual(d);
    expect(out.problems!.title).toBe('The engine rejected 90 000 fields of the upload; their defaults were used. The first 20 are listed:');
    expect(out.problems!.items).toHaveLength(MAX_NOTICES + 1);
    expect(out.problems!.items[0]).toBe('hosts[0].flows[0].params.p00000 = 1: is not a parameter of reno; known: a, b');
    expect(out.problems!.items[MAX_NOTICES]).toBe('… and 89 980 more problems, not listed.');
    expect(out.notices).toHaveLength(MAX_NOTICES + 1);
    expect(out.notices[MAX_NOTICES]).toBe('… and 89 980 more problems, not listed.');
    expect(out.status).toBe('Loaded hostile.json with defaults for the fields listed.');
    expect(JSON.stringify(out).length).toBeLessThan(20_000);
  });

  it('a file the engine cannot repair loads the default scenario and says so', async () => {
    const out = await checkUploadText('{"nope": 1}', 'other.json', d, engineLike().validate);
    expect(out.scenario).toEqual(d);
    expect(out.problems!.title).toBe('The engine rejected the upload (1 problem), so the default scenario was loaded:');
    expect(out.status).toBe('Loaded the default scenario: other.json could not be used.');
  });

  it('loads nothing from text that is not a scenario, or gives a key twice', async () => {
    const { validate, counts } = engineLike();
    const junk = await checkUploadText('<script>alert(1)</script>', 'junk.json', d, validate);
    expect(junk.scenario).toBeNull();
    expect(junk.problems!.items[0]).toMatch(/^junk\.json is not JSON/);
    expect(junk.status).toBe('The upload was not loaded.');
    const twice = await checkUploadText('{"version": 2, "hosts": [{"nic_bps": 1, "nic_bps": 2}]}', 'twice.json', d, validate);
    expect(twice.scenario).toBeNull();
    expect(twice.problems!.items[0]).toBe('twice.json gives hosts[0].nic_bps more than once in the same object; give each key once. Nothing was loaded.');
    const deep = await checkUploadText(`{"version": 2, "hosts": ${'['.repeat(300_000)}${']'.repeat(300_000)}}`, 'deep.json', d, validate);
    expect(deep.scenario).toBeNull();
    expect(deep.problems!.items[0]).toBe('deep.json is nested more than 64 levels deep, far deeper than any scenario. Nothing was loaded.');
    expect(counts.asked).toBe(0);
  });

  it('an engine that cannot answer loads nothing and says why', async () => {
    const out = await checkUploadText(JSON.stringify(d), 'x.json', d, () => Promise.reject(new Error('the engine failed to load')));
    expect(out.scenario).toBeNull();
    expect(out.problems!.items).toEqual(['The engine could not check the file: the engine failed to load']);
  });

  it('a file over the cap is not read', async () => {
    const text = vi.fn(async () => '{}');
    const out = await checkUploadFile({ name: 'big.json', size: MAX_UPLOAD_BYTES + 1, text }, d, engineLike().validate);
    expect(text).not.toHaveBeenCalled();
    expect(out.problems!.items[0]).toBe('big.json is larger than 1 MB; nothing was loaded.');
  });
});

/** A stand-in for the upload worker: the real answerUpload, messages cloned and delivered later, as a Worker does. */
function fakeWorker(validate: (s: Scenario) => Promise<ValidationError[]>, behave: 'answer' | 'crash' | 'load-error' | 'silent' = 'answer') {
  const later = (f: () => void) => setTimeout(f, 0);
  const w: UploadWorkerLike & { terminated: boolean } = {
    terminated: false,
    onmessage: null,
    onerror: null,
    postMessage(msg: ToUploadWorker) {
      const copy = structuredClone(msg);
      const say = (m: FromUploadWorker) => later(() => !w.terminated && w.onmessage?.({ data: structuredClone(m) } as MessageEvent<FromUploadWorker>));
      if (behave === 'crash') later(() => w.onerror?.({ message: 'out of memory', preventDefault() {} } as ErrorEvent));
      else if (behave === 'load-error') say({ type: 'load-error', error: { kind: 'load', message: 'the engine failed to load: no wasm' } });
      else if (behave === 'answer') {
        say({ type: 'ready', info: null });
        later(() => void answerUpload(copy, validate).then(say));
      }
    },
    terminate() {
      w.terminated = true;
    },
  };
  return w;
}

describe('checkUploadInWorker', () => {
  const d = engineDefaults();
  const file = (text: string, name = 'f.json') => new File([text], name, { type: 'application/json' });

  it('the worker reads and checks the file; the page gets the bounded answer and the worker is ended', async () => {
    const { validate } = engineLike();
    const w = fakeWorker(validate);
    const pageValidate = vi.fn(validate);
    const out = await checkUploadInWorker(file(hostileText(), 'hostile.json'), d, pageValidate, { create: () => w });
    expect(pageValidate).not.toHaveBeenCalled();
    expect(out.scenario).toEqual(d);
    expect(out.problems!.items).toHaveLength(MAX_NOTICES + 1);
    expect(w.terminated).toBe(true);
  });

  it('a worker that dies, cannot load its engine, or falls silent is reported, and ended', async () => {
    const { validate } = engineLike();
    for (const [behave, why] of [
      ['crash', 'The engine could not check the file: its worker stopped (out of memory)'],
      ['load-error', 'The engine could not check the file: the engine failed to load: no wasm'],
      ['silent', 'The engine could not check the file: it did not answer within 0.005 s'],
    ] as const) {
      const w = fakeWorker(validate, behave);
      const out = await checkUploadInWorker(file(JSON.stringify(d)), d, validate, { create: () => w, deadlineMs: 5 });
      expect(out).toEqual({ scenario: null, notices: [], problems: { title: 'The upload was not loaded:', items: [why] }, status: 'The upload was not loaded.' });
      expect(w.terminated).toBe(true);
    }
  });

  it('without workers, the page checks the file itself; a file over the cap starts no worker', async () => {
    const { validate, counts } = engineLike();
    const out = await checkUploadInWorker(file(JSON.stringify({ ...d, rtt_ms: 70 })), d, validate, {
      create: () => {
        throw new Error('no Worker here');
      },
    });
    expect(out.scenario!.rtt_ms).toBe(70);
    expect(counts.asked).toBe(1);
    const create = vi.fn();
    const big = await checkUploadInWorker(file('x'.repeat(MAX_UPLOAD_BYTES + 1), 'big.json'), d, validate, { create });
    expect(create).not.toHaveBeenCalled();
    expect(big.scenario).toBeNull();
  });
});
