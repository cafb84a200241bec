/**
 * Test support: the doc comment an editor shows for a name a module exports, found by reading the
 * sources (TypeScript's parser, no type checker): `export { x } from './y.js'`, `export * from`, a
 * local `export { x }` of a declaration or an import, followed to the declaration. A full program with
 * a type checker parses every dependency's types too (about 750 files, 5 s of CPU per entry); the
 * entries only re-export the project's own declarations, which this follows in a few dozen files.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';

export interface ExportDoc {
  /** The comment's text, tags aside. */
  text: string;
  /** It has an `@example` tag. */
  example: boolean;
  /** Some export specifier on the way carries a comment of its own (which editors do not show). */
  onSpecifier: boolean;
}

const parsed = new Map<string, ts.SourceFile>();
function source(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

/** `./x.js` from `from` → the `.ts` source beside it; a package name → undefined (not ours). */
const sourceOf = (from: string, specifier: string | undefined) =>
  specifier?.startsWith('.') ? join(dirname(from), specifier.replace(/\.js$/, '.ts')) : undefined;

function docOf(node: ts.Node): ExportDoc {
  const jsdoc = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  return {
    text: jsdoc.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join(' '),
    example: jsdoc.some((d) => (d.tags ?? []).some((t) => t.tagName.text === 'example')),
    onSpecifier: false,
  };
}

/** The statement declaring `name` in `file`: a function's (first overload), class's or type's, a variable's statement. */
function declaration(file: ts.SourceFile, name: string): ts.Node | undefined {
  for (const s of file.statements) {
    if (
      (ts.isFunctionDeclaration(s) ||
        ts.isClassDeclaration(s) ||
        ts.isInterfaceDeclaration(s) ||
        ts.isTypeAliasDeclaration(s) ||
        ts.isEnumDeclaration(s)) &&
      s.name?.text === name
    )
      return s;
    if (
      ts.isVariableStatement(s) &&
      s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)
    )
      return s;
  }
  return undefined;
}

const specifierText = (node: ts.Expression | undefined) =>
  node && ts.isStringLiteral(node) ? node.text : undefined;

/** What `name`, a name in scope in `path` (declared there or imported), documents. */
function localDoc(path: string, name: string, depth: number): ExportDoc | undefined {
  const file = source(path);
  const own = declaration(file, name);
  if (own) return docOf(own);
  for (const s of file.statements) {
    const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    const imported = bindings.elements.find((e) => e.name.text === name);
    if (!imported) continue;
    const target = sourceOf(path, specifierText((s as ts.ImportDeclaration).moduleSpecifier));
    return target === undefined
      ? undefined
      : exportedDoc(target, (imported.propertyName ?? imported.name).text, depth + 1);
  }
  return undefined;
}

/** The doc comment of what module `path` exports as `name`, or undefined when it is not found. */
export function exportedDoc(path: string, name: string, depth = 0): ExportDoc | undefined {
  if (depth > 32) return undefined;
  const file = source(path);
  for (const s of file.statements) {
    if (!ts.isExportDeclaration(s) || !s.exportClause || !ts.isNamedExports(s.exportClause)) continue;
    const element = s.exportClause.elements.find((e) => e.name.text === name);
    if (!element) continue;
    const inner = (element.propertyName ?? element.name).text;
    const from = specifierText(s.moduleSpecifier);
    const target = from === undefined ? path : sourceOf(path, from);
    const doc =
      target === undefined
        ? undefined
        : from === undefined
          ? localDoc(target, inner, depth)
          : exportedDoc(target, inner, depth + 1);
    const onSpecifier = ts.getJSDocCommentsAndTags(element).length > 0;
    return doc && { ...doc, onSpecifier: doc.onSpecifier || onSpecifier };
  }
  const own = declaration(file, name);
  if (own) return docOf(own);
  for (const s of file.statements) {
    if (!ts.isExportDeclaration(s) || s.exportClause) continue;
    const target = sourceOf(path, specifierText(s.moduleSpecifier));
    const doc = target === undefined ? undefined : exportedDoc(target, name, depth + 1);
    if (doc) return doc;
  }
  return undefined;
}
