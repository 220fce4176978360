// Playback controls: play/pause, step, restart, follow live, speed, scrub,
// with the run's progress.

import { useId } from 'react';
import { formatDuration } from '../engine/speed';
import { SPEEDS, type Playback } from '../lab/playback';
import type { RunState } from '../lab/runStore';

export interface PlaybackBarProps {
  playback: Playback;
  tShown: number;
  duration: number;
  frontier: number;
  runState: RunState;
  progress: number;
  wallMs: number | null;
  /** Wall time left of the running run, ms (null: not known yet). */
  timeLeftMs: number | null;
  onStop(): void;
  onPlay(): void;
  onPause(): void;
  onStep(dir: 1 | -1): void;
  onRestart(): void;
  onLive(): void;
  onSpeed(v: number): void;
  onScrub(t: number): void;
}

function Icon({ d }: { d: string }) {
  return (
    <svg width="14" height="14" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d={d} fill="currentColor" />
    </svg>
  );
}

export function PlaybackBar(p: PlaybackBarProps) {
  const id = useId();
  const playing = p.playback.status === 'playing';
  const speedIndex = SPEEDS.reduce((best, v, i) => (Math.abs(Math.log(v / p.playback.speed)) < Math.abs(Math.log(SPEEDS[best] / p.playback.speed)) ? i : best), 0);
  const status =
    p.runState === 'running'
      ? `Simulating… ${Math.round(p.progress * 100)}%${p.timeLeftMs !== null && p.timeLeftMs >= 2000 ? ` · ${formatDuration(p.timeLeftMs)} left` : ''}`
      : p.runState === 'done'
        ? `Done${p.wallMs !== null ? ` in ${(p.wallMs / 1000).toFixed(2)} s` : ''}`
        : p.runState === 'error'
          ? 'Not run'
          : p.runState === 'waiting'
            ? 'Waiting for you to start it'
            : p.runState === 'stopped'
              ? 'Stopped'
              : 'Starting…';
  const max = Math.max(p.duration, 1e-9);
  return (
    <div className="playback" role="group" aria-label="Playback" data-testid="playback" data-status={p.playback.status} data-play-t={String(p.tShown)}>
      <button
        type="button"
        className="pb-main"
        onClick={playing ? p.onPause : p.onPlay}
        aria-label={playing ? 'Pause' : 'Play'}
        data-testid="play"
        disabled={p.runState === 'error'}
      >
        {playing ? <Icon d="M5 3h4v14H5zM11 3h4v14h-4z" /> : <Icon d="M5 3l12 7-12 7z" />}
      </button>
      <button type="button" onClick={() => p.onStep(-1)} aria-label="Step back" data-testid="step-back" disabled={p.runState === 'error'}>
        <Icon d="M4 3h2v14H4zM17 3v14L7 10z" />
      </button>
      <button type="button" onClick={() => p.onStep(1)} aria-label="Step forward" data-testid="step" disabled={p.runState === 'error'}>
        <Icon d="M14 3h2v14h-2zM3 3v14l10-7z" />
      </button>
      <button type="button" onClick={p.onRestart} aria-label="Restart playback from 0 s" data-testid="restart" disabled={p.runState === 'error'}>
        <Icon d="M10 3a7 7 0 1 1-6.6 4.7l1.9.7A5 5 0 1 0 10 5v3L5.5 4 10 0z" />
      </button>
      <button
        type="button"
        className={p.playback.status === 'live' ? 'pb-live on' : 'pb-live'}
        onClick={p.onLive}
        aria-pressed={p.playback.status === 'live'}
        data-testid="live"
        title="Follow the simulation as it computes"
      >
        Live
      </button>
      <label className="pb-speed" htmlFor={`${id}-speed`}>
        Speed
        <input
          id={`${id}-speed`}
          type="range"
          min={0}
          max={SPEEDS.length - 1}
          step={1}
          value={speedIndex}
          aria-label="Playback speed"
          aria-valuetext={`${SPEEDS[speedIndex]}× real time`}
          onChange={(e) => p.onSpeed(SPEEDS[Number(e.currentTarget.value)])}
          data-testid="speed"
        />
        <output>{p.playback.speed}×</output>
      </label>
      <input
        className="pb-scrub"
        type="range"
        min={0}
        max={max}
        step={max / 1000}
        value={Math.min(max, p.tShown)}
        aria-label="Simulated time"
        aria-valuetext={`${p.tShown.toFixed(2)} of ${p.duration} seconds`}
        onChange={(e) => p.onScrub(Number(e.currentTarget.value))}
        data-testid="scrub"
        style={{ ['--computed' as string]: `${(p.frontier / max) * 100}%` }}
      />
      <span className="pb-time" aria-live="off">
        {p.tShown.toFixed(2)} / {p.duration} s
      </span>
      <span className="run-status" data-testid="run-status" aria-live="polite" data-time-left-ms={p.timeLeftMs === null ? '' : Math.round(p.timeLeftMs)}>
        {status}
      </span>
      {p.runState === 'running' && (
        <button type="button" className="pb-stop" onClick={p.onStop} aria-keyshortcuts="Escape" title="Stop the run (Esc)" data-testid="stop">
          Stop
        </button>
      )}
    </div>
  );
}
