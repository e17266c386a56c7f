/**
 * Builds the installable package into lib/sdk/dist (`npm pack` runs it as prepack; postpack removes dist again):
 * the SDK bundled by esbuild as ESM (index.js) and CommonJS (index.cjs), and ONE self-contained declaration file
 * (index.d.ts, and the same as index.d.cts for `require`).
 *
 * Why the declarations are generated rather than emitted as they are: the SDK's types come from lib/contract, whose
 * types are inferred from zod schemas. tsc's own output would point at ../contract/*.d.ts, outside the package, and
 * those at zod, which the package does not depend on (it needs none at run time). Shipping the contract's .d.ts with
 * zod as a peer dependency would make every user install zod for types, and a user without it would get `any` where
 * the SDK's types should be (skipLibCheck hides the missing module). So the contract's types are written out here as
 * what they resolve to (the checker's own words: unions, object types), once, at build time: the contract stays the
 * one definition, the package carries the resolved copy, and the file is type-checked on its own before it is kept.
 * Relative imports between the SDK's files are inlined too, so nothing in the package depends on module resolution
 * settings (node16 would want `.js` extensions on every relative import of a declaration file).
 * Not responsible for what the SDK does (index.ts and its files) or for testing the tarball (package.test.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, 'index.ts');
const dist = join(here, 'dist');

const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  declaration: true,
  emitDeclarationOnly: true,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
};

/** Type names the checker prints for the contract's and zod's types, which the declaration file must define. */
type Needed = Map<string, ts.Symbol>;

const PRINT =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseStructuralFallback |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

function fail(message: string): never {
  throw new Error(`build.mts: ${message}`);
}

/** The named types (aliases, interfaces) a type's printed form refers to, outside the default library. */
function collectNamed(checker: ts.TypeChecker, program: ts.Program, root: ts.Type, needed: Needed): void {
  const seen = new Set<ts.Type>();
  const isLib = (symbol: ts.Symbol) =>
    (symbol.declarations ?? []).some((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()));
  const need = (symbol: ts.Symbol) => {
    if (isLib(symbol)) return false;
    const known = needed.get(symbol.name);
    if (known && known !== symbol) fail(`two types named ${symbol.name}: rename one in lib/contract`);
    needed.set(symbol.name, symbol);
    return true;
  };
  const visit = (type: ts.Type, isRoot: boolean) => {
    if (seen.has(type)) return;
    seen.add(type);
    if (!isRoot && type.aliasSymbol) {
      if (need(type.aliasSymbol)) return; // printed by name, defined on its own
      type.aliasTypeArguments?.forEach((t) => visit(t, false));
      return;
    }
    if (type.isUnionOrIntersection()) return type.types.forEach((t) => visit(t, false));
    if (!(type.flags & ts.TypeFlags.Object)) return;
    const symbol = type.getSymbol();
    const objectFlags = (type as ts.ObjectType).objectFlags;
    if (!isRoot && symbol && objectFlags & ts.ObjectFlags.Interface) {
      if (need(symbol)) return;
    }
    if (objectFlags & ts.ObjectFlags.Reference) {
      checker.getTypeArguments(type as ts.TypeReference).forEach((t) => visit(t, false));
      if (symbol && isLib(symbol)) return; // Array<T>, ReadonlyArray<T>, ...
    }
    for (const property of type.getProperties()) visit(checker.getTypeOfSymbol(property), false);
    for (const info of checker.getIndexInfosOfType(type)) visit(info.type, false);
    for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      signature.getParameters().forEach((p) => visit(checker.getTypeOfSymbol(p), false));
      visit(signature.getReturnType(), false);
    }
  };
  visit(root, true);
}

/** `type Name = ...;` or `interface Name {...}` for a contract (or zod) type, as the checker resolves it. */
function resolvedDeclaration(checker: ts.TypeChecker, symbol: ts.Symbol): string {
  const resolved = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const type = checker.getDeclaredTypeOfSymbol(resolved);
  const declaration = resolved.declarations?.[0];
  const generic =
    declaration && (ts.isTypeAliasDeclaration(declaration) || ts.isInterfaceDeclaration(declaration))
      ? declaration.typeParameters
      : undefined;
  if (generic?.length) fail(`${symbol.name} is generic; the declaration generator writes out concrete types only`);
  if (resolved.flags & ts.SymbolFlags.Interface && !(resolved.flags & ts.SymbolFlags.TypeAlias)) {
    const members = type.getProperties().map((property) => {
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const readonly = property.declarations?.some((d) =>
        ts.getCombinedModifierFlags(d as ts.Declaration) & ts.ModifierFlags.Readonly ? true : false,
      )
        ? 'readonly '
        : '';
      const text = checker.typeToString(checker.getTypeOfSymbol(property), undefined, PRINT);
      const key = /^[A-Za-z_$][\w$]*$/.test(property.name) ? property.name : JSON.stringify(property.name);
      return `  ${readonly}${key}${optional}: ${text};`;
    });
    return `interface ${symbol.name} {\n${members.join('\n')}\n}`;
  }
  return `type ${symbol.name} = ${checker.typeToString(type, undefined, PRINT | ts.TypeFormatFlags.InTypeAlias)};`;
}

/** The text of one SDK file's declarations without imports and without `export` (the bundle exports at its end). */
function localDeclarations(file: ts.SourceFile, declared: Set<string>): string {
  const parts: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier) fail(`${file.fileName}: re-exports belong in index.ts`);
      continue; // `export type { IngestCommand }`, `export {}`: the bundle's own export list says what is public
    }
    const name = (statement as { name?: ts.Identifier }).name?.text;
    const names = name
      ? [name]
      : ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText(file))
        : fail(`${file.fileName}: cannot name a statement: ${statement.getText(file).slice(0, 60)}`);
    for (const n of names) {
      if (declared.has(n)) fail(`two declarations named ${n}: the bundle puts the SDK's files in one scope`);
      declared.add(n);
    }
    const exportKeyword = (ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined)?.find(
      (m) => m.kind === ts.SyntaxKind.ExportKeyword,
    );
    const text = statement.getFullText(file);
    if (!exportKeyword) {
      parts.push(text);
      continue;
    }
    const start = exportKeyword.getStart(file) - statement.getFullStart();
    const end = exportKeyword.getEnd() - statement.getFullStart();
    parts.push(text.slice(0, start) + text.slice(end).replace(/^ /, ''));
  }
  return parts.join('').trim();
}

function declarations(): string {
  const emitted = new Map<string, string>();
  const program = ts.createProgram([entry], compilerOptions);
  const errors = ts.getPreEmitDiagnostics(program);
  if (errors.length > 0) fail(ts.formatDiagnostics(errors, host(program)));
  program.emit(undefined, (fileName, text) => emitted.set(resolve(fileName), text));
  const checker = program.getTypeChecker();

  // the SDK's own files, as tsc declares them (dist-relative names: index.d.ts, run.d.ts, ...)
  const sdkFiles = program
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile && resolve(f.fileName).startsWith(here + '/'))
    .map((f) => resolve(f.fileName));
  const needed: Needed = new Map();
  const declared = new Set<string>();
  const bodies: string[] = [];
  let exportList: string[] = [];
  for (const source of sdkFiles) {
    const dts = emitted.get(source.replace(/\.ts$/, '.d.ts'));
    if (dts === undefined) fail(`no declarations emitted for ${source}`);
    const file = ts.createSourceFile(source.replace(/\.ts$/, '.d.ts'), dts, ts.ScriptTarget.ES2022, true);
    // every type imported from outside the SDK (the contract) is written out resolved
    const sourceFile = program.getSourceFile(source)!;
    for (const statement of sourceFile.statements) {
      if (!ts.isImportDeclaration(statement) && !(ts.isExportDeclaration(statement) && statement.moduleSpecifier)) {
        continue;
      }
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      if (specifier.startsWith('./')) continue;
      if (!specifier.startsWith('../contract/')) fail(`${source} imports ${specifier}: the SDK imports nothing else`);
      const elements = ts.isImportDeclaration(statement)
        ? statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)
          ? statement.importClause.namedBindings.elements
          : fail(`${source}: import named types from ${specifier}`)
        : statement.exportClause && ts.isNamedExports(statement.exportClause)
          ? statement.exportClause.elements
          : fail(`${source}: export named types from ${specifier}`);
      for (const element of elements) {
        if (element.propertyName) fail(`${source}: renamed import ${element.name.text}`);
        const symbol = checker.getSymbolAtLocation(element.name);
        if (!symbol) fail(`${source}: cannot resolve ${element.name.text}`);
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        needed.set(element.name.text, target);
      }
    }
    if (source === entry) {
      // the front door: what it exports is the package's public surface
      exportList = file.statements.flatMap((s) =>
        ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
          ? s.exportClause.elements.map((e) => {
              if (e.propertyName) fail(`index.ts: renamed export ${e.name.text}`);
              return (s.isTypeOnly || e.isTypeOnly ? 'type ' : '') + e.name.text;
            })
          : [],
      );
      continue;
    }
    bodies.push(`// --- ${relative(here, source)}\n${localDeclarations(file, declared)}`);
  }

  // the contract's types, and every named type their resolved forms mention, until nothing new is named
  const written = new Map<string, string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, symbol] of [...needed]) {
      if (written.has(name)) continue;
      if (declared.has(name)) fail(`the contract's ${name} has the name of one of the SDK's own declarations`);
      written.set(name, resolvedDeclaration(checker, symbol));
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      collectNamed(checker, program, type, needed);
      grew = true;
    }
  }
  const contract = [...written.values()].join('\n\n');
  return [
    "// Generated by lib/sdk/build.mts from lib/sdk and lib/contract: the SDK's types, self-contained. Do not edit.",
    '',
    '// --- lib/contract (types only, as they resolve)',
    contract,
    '',
    ...bodies,
    '',
    `export { ${exportList.join(', ')} };`,
    '',
  ].join('\n');
}

function host(program: ts.Program): ts.FormatDiagnosticsHost {
  return {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => program.getCurrentDirectory(),
    getNewLine: () => '\n',
  };
}

/** The generated file must stand alone: checked strictly, with nothing but the default library. */
function checkAlone(file: string): void {
  const program = ts.createProgram([file], { ...compilerOptions, skipLibCheck: false, noEmit: true, types: [] });
  const errors = ts.getPreEmitDiagnostics(program);
  if (errors.length > 0) {
    fail(`the generated declarations do not stand alone:\n${ts.formatDiagnostics(errors, host(program))}`);
  }
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
for (const format of ['esm', 'cjs'] as const) {
  await build({
    entryPoints: [entry],
    outfile: join(dist, format === 'esm' ? 'index.js' : 'index.cjs'),
    bundle: true,
    format,
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
  });
}
const types = declarations();
writeFileSync(join(dist, 'index.d.ts'), types);
writeFileSync(join(dist, 'index.d.cts'), types);
checkAlone(join(dist, 'index.d.ts'));
console.log(`built ${relative(process.cwd(), dist) || 'dist'}: index.js, index.cjs, index.d.ts, index.d.cts`);
