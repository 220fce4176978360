// Text whose `backticked` spans name a command or option (the engine's and
// the CLI's messages are written that way): shown as code, without the
// backticks.

import { Fragment } from 'react';

/** The parts of `text` between backticks, as [plain, code, plain, …]; an unpaired backtick stays as text. */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  const parts = text.split('`');
  if (parts.length % 2 === 0) return [{ text, code: false }];
  return parts.map((t, i) => ({ text: t, code: i % 2 === 1 })).filter((p) => p.text !== '');
}

export function CodeText({ text }: { text: string }) {
  return (
    <>
      {codeSpans(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <Fragment key={i}>{p.text}</Fragment>))}
    </>
  );
}
