import { describe, expect, it } from 'vitest';
import { shortcutFor, SHORTCUTS, type KeyTarget } from './shortcuts';

const body: KeyTarget = { tag: 'body' };
const press = (key: string, target: KeyTarget = body, mods: { ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean } = {}) => ({ key, target, ...mods });

describe('presentation shortcuts', () => {
  it('play, pause, step and reset the lab page', () => {
    expect(shortcutFor('lab', press(' '))).toBe('play-pause');
    expect(shortcutFor('lab', press('k'))).toBe('play-pause');
    expect(shortcutFor('lab', press('ArrowRight'))).toBe('step-forward');
    expect(shortcutFor('lab', press('ArrowLeft'))).toBe('step-back');
    expect(shortcutFor('lab', press('Home'))).toBe('restart');
    expect(shortcutFor('lab', press('R'))).toBe('restart');
    expect(shortcutFor('lab', press('f'))).toBe('fullscreen');
    expect(shortcutFor('lab', press('x'))).toBeNull();
  });

  it('move between a guided lab’s screens', () => {
    expect(shortcutFor('labs', press('ArrowRight'))).toBe('next-screen');
    expect(shortcutFor('labs', press('PageUp'))).toBe('previous-screen');
    expect(shortcutFor('labs', press('F'))).toBe('fullscreen');
    expect(shortcutFor('labs', press(' '))).toBeNull();
  });

  it('leave keys to fields, sliders, selects and focused charts', () => {
    expect(shortcutFor('lab', press('k', { tag: 'input', type: 'text' }))).toBeNull();
    expect(shortcutFor('lab', press('ArrowRight', { tag: 'input', type: 'range' }))).toBeNull();
    expect(shortcutFor('labs', press('n', { tag: 'textarea' }))).toBeNull();
    expect(shortcutFor('lab', press('r', { tag: 'div', editable: true }))).toBeNull();
    expect(shortcutFor('lab', press('ArrowLeft', { tag: 'figure', inChart: true }))).toBeNull();
    // A chart does not use Space: it still plays.
    expect(shortcutFor('lab', press(' ', { tag: 'figure', inChart: true }))).toBe('play-pause');
    // A focused button takes Space itself, but not the arrows.
    expect(shortcutFor('lab', press(' ', { tag: 'button' }))).toBeNull();
    expect(shortcutFor('lab', press('ArrowRight', { tag: 'button' }))).toBe('step-forward');
    // A radio takes its arrows; a checkbox its Space.
    expect(shortcutFor('lab', press('ArrowLeft', { tag: 'input', type: 'radio' }))).toBeNull();
    expect(shortcutFor('lab', press(' ', { tag: 'input', type: 'checkbox' }))).toBeNull();
  });

  it('leave presentation mode with Esc on either page, except where a focused chart hides its cursor', () => {
    expect(shortcutFor('lab', press('Escape'))).toBe('exit');
    expect(shortcutFor('labs', press('Escape'))).toBe('exit');
    expect(shortcutFor('lab', press('Escape', { tag: 'figure', inChart: true }))).toBeNull();
    expect(shortcutFor('lab', press('Escape', { tag: 'select' }))).toBeNull();
  });

  it('leave browser and system shortcuts alone', () => {
    expect(shortcutFor('lab', press('r', body, { ctrlKey: true }))).toBeNull();
    expect(shortcutFor('lab', press('f', body, { metaKey: true }))).toBeNull();
    expect(shortcutFor('labs', press('ArrowLeft', body, { altKey: true }))).toBeNull();
  });

  it('give every key one action per page', () => {
    for (const page of ['lab', 'labs'] as const) {
      const keys = SHORTCUTS.filter((s) => s.page === page || s.page === 'both').flatMap((s) => s.keys);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});
