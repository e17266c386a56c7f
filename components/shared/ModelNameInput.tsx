// The model name for an OpenAI-compatible server: a select of the models an operator listed for it, or a free text
// box when it lists none (or it is not a listed server). The run form's model picker and the fork dialog both ask it.
// Not responsible for the label around it, nor for which server is chosen (the form's state, lib/forms).
export function ModelNameInput({
  id,
  testId,
  models,
  value,
  onChange,
  className,
}: {
  id: string;
  testId: string;
  /** the listed server's models; empty: type a name */
  models: readonly string[];
  value: string;
  onChange: (model: string) => void;
  className?: string;
}) {
  return models.length > 0 ? (
    <select id={id} className={className} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
      {models.map((m) => (
        <option key={m} value={m}>
          {m}
        </option>
      ))}
    </select>
  ) : (
    <input
      id={id}
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}
