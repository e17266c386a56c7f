// The sandbox's type-check thread: the TypeScript compiler API, off the server's event loop. Plain JavaScript on
// purpose: the server runs bundled under `next start`, vitest and tsx run the sources, and all three can start a
// worker on a real .mjs file found at run time (typecheck.ts locates it), while `typescript` is imported here by its
// absolute path (never bundled). Kept warm: each job is one message; files outside the project (lib.d.ts,
// @types/node) are parsed once per thread and reused. Not responsible for running tests (runner.ts) or for the temp
// folder (folder.ts).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const ts = (await import(pathToFileURL(workerData.typescriptPath).href)).default;

/** Parsed declaration files outside any project folder, by name and language version: the cold start's cost. */
const shared = new Map();

const SOURCE = /\.(ts|tsx|mts|cts)$/;
const DECLARATION = /\.d\.(ts|mts|cts)$/;

/** The project's compilerOptions (its tsconfig.json, or strict defaults); the sandbox's own settings over them. */
function optionsFor(root, typeRoots, nodeTypes) {
  const defaults = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    esModuleInterop: true,
    skipLibCheck: true,
    types: nodeTypes ? ['node'] : [],
  };
  let options = defaults;
  const configPath = path.join(root, 'tsconfig.json');
  const problems = [];
  if (fs.existsSync(configPath)) {
    const read = ts.readConfigFile(configPath, (p) => fs.readFileSync(p, 'utf8'));
    if (read.error) problems.push(read.error);
    else {
      const converted = ts.convertCompilerOptionsFromJson(read.config.compilerOptions ?? {}, root, 'tsconfig.json');
      problems.push(...converted.errors);
      options = { ...converted.options };
      if (options.types === undefined) options.types = defaults.types;
    }
  }
  // nothing is emitted by the check (the tests' JavaScript comes from transpileModule), and the project's types come
  // from the server's node_modules: the temp folder has none
  return {
    options: {
      ...options,
      noEmit: true,
      incremental: false,
      composite: false,
      typeRoots,
      rootDir: undefined,
      // lib.d.ts and @types/node are the server's, not the project's: checking them costs seconds and says nothing
      skipLibCheck: true,
    },
    problems,
  };
}

function check(job) {
  const started = Date.now();
  const { options, problems } = optionsFor(job.root, job.typeRoots, job.nodeTypes);
  const host = ts.createCompilerHost(options, true);
  host.getCurrentDirectory = () => job.root;
  // the compiler reads the project, typescript's lib files and the type roots, nothing else: a `/// <reference>`,
  // an import or a tsconfig path pointing elsewhere on the server finds nothing (its text could surface in messages)
  const readable = [job.root, path.dirname(workerData.typescriptPath), ...job.typeRoots];
  const allowed = (name) =>
    readable.some((dir) => {
      const relative = path.relative(dir, path.resolve(job.root, name));
      return !relative.startsWith('..') && !path.isAbsolute(relative);
    });
  for (const method of ['fileExists', 'directoryExists']) {
    const original = host[method]?.bind(host);
    if (original) host[method] = (name) => allowed(name) && original(name);
  }
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (allowed(name) ? readFile(name) : undefined);
  const getDirectories = host.getDirectories?.bind(host);
  if (getDirectories) host.getDirectories = (name) => (allowed(name) ? getDirectories(name) : []);
  const getSourceFile = host.getSourceFile.bind(host);
  const inside = (fileName) => !path.relative(job.root, fileName).startsWith('..');
  host.getSourceFile = (fileName, languageVersion, onError, fresh) => {
    if (!allowed(fileName)) return undefined;
    if (inside(fileName)) return getSourceFile(fileName, languageVersion, onError, fresh);
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    let file = shared.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersion, onError, fresh);
      if (file) shared.set(key, file);
    }
    return file;
  };
  const rootNames = job.files.filter((f) => SOURCE.test(f)).map((f) => path.join(job.root, f));
  const program = ts.createProgram({ rootNames, options, host });
  const diagnostics = [...problems, ...ts.getPreEmitDiagnostics(program)];
  const format = {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => job.root,
    getNewLine: () => '\n',
  };
  return {
    // as tsc prints them without --pretty: "src/a.ts(3,5): error TS2322: Type 'string' is not assignable ..."
    diagnostics: diagnostics
      .filter((d) => d.category === ts.DiagnosticCategory.Error)
      .map((d) => ts.formatDiagnostic(d, format).trimEnd()),
    ms: Date.now() - started,
  };
}

/** Each source file as CommonJS JavaScript under outDir, other files copied, whatever the type-check said. */
function emit(job) {
  fs.mkdirSync(job.outDir, { recursive: true });
  // the emitted files are CommonJS whatever the project's package.json says
  fs.writeFileSync(path.join(job.outDir, 'package.json'), '{ "type": "commonjs" }\n');
  const errors = [];
  for (const file of job.files) {
    if (file === 'package.json') continue;
    const source = path.join(job.root, file);
    const isSource = SOURCE.test(file) && !DECLARATION.test(file);
    const target = path.join(job.outDir, isSource ? file.replace(SOURCE, '.js') : file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!isSource) {
      fs.copyFileSync(source, target);
      continue;
    }
    const output = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        jsx: ts.JsxEmit.ReactJSX,
        inlineSourceMap: false,
      },
    });
    for (const d of output.diagnostics ?? [])
      errors.push(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    fs.writeFileSync(target, output.outputText);
  }
  return errors;
}

parentPort.on('message', (job) => {
  try {
    const result = job.typecheck ? check(job) : { diagnostics: [], ms: 0 };
    // the tests' JavaScript: after a clean check, or always when the caller runs the tests whatever the check says
    const emits = job.emit === 'always' || (job.emit === 'if-clean' && result.diagnostics.length === 0);
    const emitErrors = emits ? emit(job) : [];
    parentPort.postMessage({ id: job.id, ok: true, ...result, emitted: emits, emitErrors });
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: String((error && error.stack) || error) });
  }
});
