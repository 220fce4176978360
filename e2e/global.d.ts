// window.sawtooth as the published contract declares it
// (docs/sawtooth-test-surface.d.ts; the page's hooks are checked against it
// when the app is compiled). Importing the declarations declares
// `window.sawtooth` for every spec.
import type {} from '../docs/sawtooth-test-surface';

export {};
