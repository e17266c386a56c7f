/**
 * The sandbox's temporary folder: made fresh per verification under the system's temp dir, the project's files
 * written into it (a name that would leave it is refused), and removed afterwards whatever happened.
 * Not responsible for what runs in it (typecheck.ts, runner.ts).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ProjectFiles } from '../types';

/** Where the tests' JavaScript is emitted inside the folder; a project may not name a file under it. */
export const OUT_DIR = '.arborist-out';

export const FOLDER_PREFIX = 'arborist-sandbox-';

/**
 * `name` if it is a plain relative posix path inside the project; throws otherwise. Absolute paths, `..`, empty
 * parts, backslashes and NUL are refused: the names come from a model's diff or an imported folder.
 */
export function checkedName(name: string): string {
  const parts = name.split('/');
  const bad =
    name === '' ||
    name.startsWith('/') ||
    /[\\\0]/.test(name) ||
    /^[A-Za-z]:/.test(name) ||
    parts.some((part) => part === '' || part === '.' || part === '..') ||
    parts[0] === OUT_DIR;
  if (bad) throw new Error(`sandbox: refused file name ${JSON.stringify(name)} (absolute, .. or reserved)`);
  return name;
}

/** A fresh folder (its real path: os.tmpdir() may be a link, and the permission flags compare real paths). */
export async function makeFolder(): Promise<string> {
  const made = await fs.mkdtemp(path.join(os.tmpdir(), FOLDER_PREFIX));
  return fs.realpath(made);
}

export async function writeProject(root: string, files: ProjectFiles): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const target = path.join(root, checkedName(name));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, text);
  }
}

export async function removeFolder(root: string): Promise<void> {
  await fs.rm(root, { recursive: true, force: true, maxRetries: 3 });
}
