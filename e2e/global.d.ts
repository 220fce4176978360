// window.sawtooth as the page defines it (app/src/lab/testHooks.ts).
import type { SawtoothHooks } from '../app/src/lab/testHooks';

declare global {
  interface Window {
    sawtooth?: SawtoothHooks;
  }
}
export {};
