import { describeEngineError, type EngineError } from '../engine/errors';
import type { ResourceEstimate, Scenario } from '../engine/types';
import { crashSuspect } from '../lab/runAdvice';

export interface ErrorPanelProps {
  error: EngineError;
  /** The scenario that failed and its resource estimate, to name the setting most likely behind a crash. */
  scenario?: Scenario;
  estimate?: ResourceEstimate | null;
}

export function ErrorPanel({ error, scenario, estimate }: ErrorPanelProps) {
  const title = error.kind === 'validation' ? 'The scenario is not valid' : 'The simulation failed';
  const suspect = error.kind === 'trap' && scenario ? crashSuspect(scenario, estimate ?? null) : null;
  return (
    <div className="error-panel" role="alert" data-testid="run-error" data-error-kind={error.kind} data-suspect-field={suspect?.field}>
      <strong>{title}</strong>
      <ul>
        {describeEngineError(error).map((line, i) => (
          <li key={i}>{line}</li>
        ))}
        {suspect && <li>{suspect.text}</li>}
      </ul>
    </div>
  );
}
