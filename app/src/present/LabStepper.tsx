// Presentation mode in a guided lab: one screen at a time, question →
// prediction → run → the paper beside the simulation. The lab's own view
// (guided/LabDetail.tsx) is unchanged: this wraps it and present.css shows
// the sections of the current screen (data-step).

import { useState, type ReactNode } from 'react';
import { usePresentKeys } from './usePresentKeys';

export const LAB_SCREENS = [
  { id: 'question', title: 'The question' },
  { id: 'prediction', title: 'Your prediction' },
  { id: 'run', title: 'Run the sweep' },
  { id: 'paper', title: 'The paper beside the simulation' },
] as const;

export function LabStepper({ active, children }: { active: boolean; children: ReactNode }) {
  const [step, setStep] = useState(0);
  const go = (i: number) => setStep(Math.max(0, Math.min(LAB_SCREENS.length - 1, i)));
  usePresentKeys('labs', active, (a) => {
    if (a === 'next-screen') go(step + 1);
    else if (a === 'previous-screen') go(step - 1);
  });
  const screen = LAB_SCREENS[step];
  return (
    <div className="lab-stepper" data-testid={active ? 'lab-stepper' : undefined} data-step={active ? screen.id : undefined}>
      {active && (
        <nav className="stepper-nav" aria-label="Lab screens">
          <button type="button" className="share-button" onClick={() => go(step - 1)} disabled={step === 0} data-testid="screen-previous" aria-keyshortcuts="ArrowLeft PageUp P">
            ← Back
          </button>
          <ol>
            {LAB_SCREENS.map((s, i) => (
              <li key={s.id}>
                <button type="button" className="stepper-screen" aria-current={i === step ? 'step' : undefined} onClick={() => go(i)} data-screen={s.id}>
                  {i + 1}. {s.title}
                </button>
              </li>
            ))}
          </ol>
          <button type="button" className="share-button" onClick={() => go(step + 1)} disabled={step === LAB_SCREENS.length - 1} data-testid="screen-next" aria-keyshortcuts="ArrowRight PageDown N">
            Next →
          </button>
          <p className="sr-only" aria-live="polite">
            Screen {step + 1} of {LAB_SCREENS.length}: {screen.title}
          </p>
        </nav>
      )}
      {children}
    </div>
  );
}
