'use client';
// A Copy button for a text that is not on screen as a selection (a share link, a new API key): says "Copied" for a
// moment; where the browser refuses the clipboard (plain http on another host), the text is offered in a prompt to
// copy by hand. Not responsible for showing the text itself.
import { useState } from 'react';

/** Copy a text, saying so for a moment; where the clipboard is refused (plain http), the text is offered to copy. */
export function CopyText({ text, testId, small }: { text: string; testId?: string; small?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`btn${small ? ' btn-sm' : ''}`}
      data-testid={testId}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
        } catch {
          window.prompt('Copy this', text);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1_500);
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
