// A labelled text box in the house's `.field` look (app/globals.css): label, input and, when given, a hint the input
// is described by (`<id>-hint`). The sign-in, setup and settings forms are made of these. Any other input attribute
// (type, required, autoComplete, minLength, placeholder) passes through. Not responsible for validation or state:
// the form owns the value.
import type { InputHTMLAttributes, ReactNode } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

export function TextField({
  id,
  label,
  value,
  onChange,
  hint,
  ...input
}: InputProps & {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        {...input}
      />
      {hint !== undefined && (
        <span className="field-hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}
