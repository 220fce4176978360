// What was ignored in the link or an upload: plain text in a list (React
// escapes it; nothing from a URL is ever inserted as HTML).

import { useState } from 'react';

export interface NoticesProps {
  notices: string[];
  /** Heading text. */
  title?: string;
  testId?: string;
}

export function Notices({ notices, title = 'Some of the link was not used', testId = 'url-notice' }: NoticesProps) {
  const [dismissed, setDismissed] = useState<string[] | null>(null);
  if (notices.length === 0 || dismissed === notices) return null;
  return (
    <section className="share-notice" role="status" aria-live="polite" data-testid={testId} data-notice-count={notices.length}>
      <h2 className="share-notice-title">{title}</h2>
      <ul>
        {notices.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      <button type="button" className="share-button" onClick={() => setDismissed(notices)}>
        Dismiss
      </button>
    </section>
  );
}
