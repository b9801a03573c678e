// packages/iam-console/README.md's Lit snippet typechecks as written: a host's own Lit element reads
// what <iam-provider> passes down through the exported `iamContext`, typed `IamProvided`
// (`iam-console/elements` resolved to its source, `lit` and `@lit/context` as a host installs them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { docBlock } from '../doc-blocks';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The previous program, whose unchanged files the next one reuses. */
let previous: ts.Program | undefined;

/** The diagnostics of `source` as a module at the repository's root (for its node_modules). */
function diagnosticsOf(source: string): string[] {
  const file = `${root}lit-host-snippet.ts`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    strict: true,
    noImplicitOverride: true,
    useDefineForClassFields: false,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    baseUrl: root,
    paths: { 'iam-console/elements': ['src/elements/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (path) => (path === file ? source : readFile(path));
  host.fileExists = (path) => path === file || ts.sys.fileExists(path);
  host.getSourceFile = (path, language) => (path === file ? ts.createSourceFile(path, source, language) : getSourceFile(path, language));
  const program = ts.createProgram([file], options, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const snippet = docBlock('packages/iam-console/README.md', 'ts', 'iamContext');

test("README's Lit snippet typechecks: the context object and its value's type are exported", () => {
  assert.deepEqual(diagnosticsOf(snippet), []);
});

test('the context is typed: reading a key the provider does not pass is an error', () => {
  const wrong = snippet.replace('value?.locale', 'value?.language');
  assert.notEqual(wrong, snippet);
  assert.match(diagnosticsOf(wrong).join('\n'), /Property 'language' does not exist on type 'IamProvided'/);
});
