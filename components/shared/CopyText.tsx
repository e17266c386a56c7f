'use client';
// A Copy button for a text that is not on screen as a selection (the page's own address, a share link, a new API
// key): says "Copied" for a moment; where the browser refuses the clipboard (plain http on another host,
// permissions), the text is offered in a prompt to copy by hand. Not responsible for showing the text itself.
import { useState } from 'react';

export function CopyText({
  text,
  label = 'Copy',
  title,
  testId,
  small,
}: {
  /** The text, or how to read it at the moment of the click (the page's address changes with what is on screen). */
  text: string | (() => string);
  label?: string;
  title?: string;
  testId?: string;
  small?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={`btn${small ? ' btn-sm' : ''}`}
      data-testid={testId}
      title={title}
      onClick={async () => {
        const value = typeof text === 'function' ? text() : text;
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          window.prompt('Copy this', value);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1_500);
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}
