'use client';
/**
 * Where an experiment's items come from: a shipped set (a Game of 24 range can be narrowed), a dataset already
 * stored for the task, or a file pasted or uploaded (JSONL: one goal or {goal, expected, tags} a line; CSV: a header
 * with `goal`). A shipped set or a file becomes a dataset first (dataset.create), whose refusal names its line;
 * the chosen dataset goes up through onDataset.
 * Not responsible for parsing the file (the server does, with lib/experiments' parser) nor for the experiment.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import type { CreateDatasetInput } from '@/lib/contract/experiments';
import { shippedDataset } from '@/lib/experiments/index';
import { useTRPC } from '@/lib/trpc/index';
import s from './NewExperimentForm.module.css';

export interface ChosenDataset {
  id: string;
  name: string;
  version: number;
  itemCount: number;
}

type Source = 'shipped' | 'stored' | 'file';
const SOURCES: { id: Source; label: string }[] = [
  { id: 'shipped', label: 'Shipped set' },
  { id: 'stored', label: 'Stored dataset' },
  { id: 'file', label: 'Paste or upload' },
];

/** `game24:900-999` -> its prefix and bounds, so a narrower range can be asked for. */
function rangeOf(id: string): { prefix: string; from: number; to: number } | null {
  const m = /^(.+):(\d+)-(\d+)$/.exec(id);
  return m ? { prefix: m[1]!, from: Number(m[2]), to: Number(m[3]) } : null;
}

export function ItemsPicker({
  taskId,
  chosen,
  onDataset,
}: {
  taskId: string;
  chosen: ChosenDataset | null;
  onDataset: (dataset: ChosenDataset | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [source, setSource] = useState<Source>('shipped');
  const create = useMutation(
    trpc.dataset.create.mutationOptions({
      onSuccess: (made, input) => {
        void queryClient.invalidateQueries({ queryKey: trpc.dataset.list.pathKey() });
        onDataset({ id: made.id, name: input.name, version: made.version, itemCount: made.itemCount });
      },
    }),
  );
  const make = (input: CreateDatasetInput) => create.mutate(input);
  return (
    <fieldset className={s.group} data-testid="items-picker">
      <legend className={s.legend}>Items</legend>
      <div className={s.segmented} role="group" aria-label="Where the items come from">
        {SOURCES.map((x) => (
          <button
            key={x.id}
            type="button"
            className={s.segment}
            aria-pressed={source === x.id}
            onClick={() => {
              setSource(x.id);
              create.reset();
            }}
            data-testid={`source-${x.id}`}
          >
            {x.label}
          </button>
        ))}
      </div>
      {source === 'shipped' && <ShippedSource taskId={taskId} busy={create.isPending} onMake={make} />}
      {source === 'stored' && <StoredSource taskId={taskId} chosen={chosen} onDataset={onDataset} />}
      {source === 'file' && <FileSource taskId={taskId} busy={create.isPending} onMake={make} />}
      {create.error && (
        <p className="error-note" role="alert" data-testid="dataset-error">
          The items were refused: {create.error.message}
        </p>
      )}
      {chosen && (
        <p className={s.chosen} data-testid="dataset-chosen">
          Using <b>{chosen.name}</b> v{chosen.version} · {chosen.itemCount} items
        </p>
      )}
    </fieldset>
  );
}

function ShippedSource({
  taskId,
  busy,
  onMake,
}: {
  taskId: string;
  busy: boolean;
  onMake: (input: CreateDatasetInput) => void;
}) {
  const trpc = useTRPC();
  const shipped = useQuery(trpc.dataset.shipped.queryOptions());
  const sets = (shipped.data ?? []).filter((d) => d.taskId === taskId);
  const [picked, setPicked] = useState('');
  const set = sets.find((d) => d.id === picked) ?? sets[0] ?? null;
  const range = set ? rangeOf(set.id) : null;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const id = set && range && (from || to) ? `${range.prefix}:${from || range.from}-${to || range.to}` : set?.id;
  if (shipped.isPending) return <p className="field-hint">Loading the shipped sets…</p>;
  if (!set) return <p className="field-hint">No set ships for this task: paste or upload one.</p>;
  return (
    <div className={s.sourceRow}>
      <div className="field">
        <label htmlFor="shipped-set">Set</label>
        <select id="shipped-set" value={set.id} onChange={(e) => setPicked(e.target.value)} data-testid="field-shipped">
          {sets.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({d.itemCount} items)
            </option>
          ))}
        </select>
        <span className="field-hint">{set.description}</span>
      </div>
      {range && (
        <div className={s.range}>
          <div className="field">
            <label htmlFor="shipped-from">From</label>
            <input
              id="shipped-from"
              type="number"
              min={range.from}
              max={range.to}
              placeholder={String(range.from)}
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              data-testid="field-shipped-from"
            />
          </div>
          <div className="field">
            <label htmlFor="shipped-to">To</label>
            <input
              id="shipped-to"
              type="number"
              min={range.from}
              max={range.to}
              placeholder={String(range.to)}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              data-testid="field-shipped-to"
            />
          </div>
        </div>
      )}
      <button
        type="button"
        className="btn"
        disabled={busy || !id}
        onClick={() => id && onMake({ name: shippedDataset(id)?.name ?? id, taskId, shipped: id })}
        data-testid="use-shipped"
      >
        {busy ? 'Loading…' : 'Use these items'}
      </button>
    </div>
  );
}

function StoredSource({
  taskId,
  chosen,
  onDataset,
}: {
  taskId: string;
  chosen: ChosenDataset | null;
  onDataset: (dataset: ChosenDataset | null) => void;
}) {
  const trpc = useTRPC();
  const list = useQuery(trpc.dataset.list.queryOptions({ taskId }));
  const datasets = list.data ?? [];
  if (list.isPending) return <p className="field-hint">Loading the stored datasets…</p>;
  if (datasets.length === 0) return <p className="field-hint">No dataset is stored for this task yet.</p>;
  return (
    <div className="field">
      <label htmlFor="stored-dataset">Dataset</label>
      <select
        id="stored-dataset"
        value={chosen?.id ?? ''}
        onChange={(e) => {
          const d = datasets.find((x) => x.id === e.target.value);
          onDataset(d ? { id: d.id, name: d.name, version: d.version, itemCount: d.itemCount } : null);
        }}
        data-testid="field-stored"
      >
        <option value="">pick one…</option>
        {datasets.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} · v{d.version} · {d.itemCount} items
          </option>
        ))}
      </select>
    </div>
  );
}

function FileSource({
  taskId,
  busy,
  onMake,
}: {
  taskId: string;
  busy: boolean;
  onMake: (input: CreateDatasetInput) => void;
}) {
  const [name, setName] = useState('');
  const [format, setFormat] = useState<'jsonl' | 'csv'>('jsonl');
  const [text, setText] = useState('');
  async function load(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setFormat(/\.csv$/i.test(file.name) ? 'csv' : 'jsonl');
    if (!name) setName(file.name.replace(/\.[^.]+$/, ''));
    setText(await file.text());
  }
  return (
    <div className={s.fileSource}>
      <div className={s.sourceRow}>
        <div className="field">
          <label htmlFor="dataset-name">Dataset name</label>
          <input
            id="dataset-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="field-dataset-name"
          />
        </div>
        <div className="field">
          <label htmlFor="dataset-format">Format</label>
          <select
            id="dataset-format"
            value={format}
            onChange={(e) => setFormat(e.target.value as 'jsonl' | 'csv')}
            data-testid="field-format"
          >
            <option value="jsonl">JSONL</option>
            <option value="csv">CSV</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="dataset-file">File</label>
          <input id="dataset-file" type="file" accept=".jsonl,.json,.csv,.txt" onChange={(e) => void load(e)} />
        </div>
      </div>
      <textarea
        className={`input ${s.paste}`}
        aria-label="The items, one a line"
        placeholder={
          format === 'csv'
            ? 'goal,expected,tags\n4 9 10 13,,easy'
            : '"4 9 10 13"\n{"goal": "1 1 4 6", "tags": ["hard"]}'
        }
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        data-testid="field-paste"
      />
      <button
        type="button"
        className="btn"
        disabled={busy || !text.trim() || !name.trim()}
        onClick={() => onMake({ name: name.trim(), taskId, file: { format, text } })}
        data-testid="use-file"
      >
        {busy ? 'Checking…' : 'Make the dataset'}
      </button>
    </div>
  );
}
