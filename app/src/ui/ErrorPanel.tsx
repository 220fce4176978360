import { describeEngineError, type EngineError } from '../engine/errors';

export function ErrorPanel({ error }: { error: EngineError }) {
  const title = error.kind === 'validation' ? 'The scenario is not valid' : 'The simulation failed';
  return (
    <div className="error-panel" role="alert" data-testid="run-error" data-error-kind={error.kind}>
      <strong>{title}</strong>
      <ul>
        {describeEngineError(error).map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
