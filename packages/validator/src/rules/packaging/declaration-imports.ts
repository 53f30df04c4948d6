/**
 * Import analysis of `.d.ts` files for package rule 5, with the TypeScript compiler API bundled by ts-morph
 * (TypeScript 6.x, the last major with a JavaScript API). Loaded lazily, only when a package ships
 * declaration files; `preProcessFile` scans imports, `import()` types and re-exports without type-checking.
 */
import { positionAt } from '@skein/discovery';

/** One module specifier found in a declaration file, 1-based position. */
export interface DeclarationImport {
  specifier: string;
  line: number;
  column: number;
}

type PreProcess = (text: string) => DeclarationImport[];
let preProcess: Promise<PreProcess> | undefined;

async function load(): Promise<PreProcess> {
  const { ts } = await import('ts-morph');
  return (text) => {
    const info = ts.preProcessFile(text, true, true);
    // `pos` is the specifier's opening quote, where Babel-based findings point too.
    return info.importedFiles.map((ref) => ({ specifier: ref.fileName, ...positionAt(text, ref.pos) }));
  };
}

/** Every module a declaration file's text imports or re-exports, in order. */
export async function declarationImports(text: string): Promise<DeclarationImport[]> {
  preProcess ??= load();
  return (await preProcess)(text);
}
