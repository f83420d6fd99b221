import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { decode } from '@jridgewell/sourcemap-codec';
import { build } from 'vite';

// What the storefront's initial JavaScript is made of: the store built as `npm run build` does, but
// with source maps, into a scratch folder; each byte of every initial chunk (the entry and its
// module preloads) is put down to the source it came from, and sources are grouped by npm package
// or by our own folder. A chunk's gzip size is shared out in proportion to its bytes, so the groups
// add up to what shoppers download.

export interface ScriptShare {
  /** An npm package ("react-dom"), one of our folders ("src/client/components/layout"), or the bundler's own code. */
  group: string;
  raw: number;
  gzip: number;
}

const BUNDLER_RUNTIME = '(bundler runtime, no source)';

function groupOf(source: string, root: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (inPackage) return inPackage[1]!;
  const ours = path.relative(root, path.resolve(source));
  return ours.startsWith('..') ? source : path.dirname(ours);
}

/** Initial scripts of a built index.html: the module entry and its module preloads. */
function initialScripts(html: string): string[] {
  return [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="\/([^"]+\.js)"[^>]*>/g)].map((match) => match[1]!);
}

/** Characters of one built chunk by the source each came from, read from its source map. */
function bytesBySource(code: string, mapJson: string, mapDir: string): Map<string, number> {
  const map = JSON.parse(mapJson) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const bytes = new Map<string, number>();
  decode(map.mappings).forEach((segments, lineIndex) => {
    const lineLength = lines[lineIndex]?.length ?? 0;
    segments.forEach((segment, i) => {
      const end = segments[i + 1]?.[0] ?? lineLength;
      const source = segment.length > 1 ? path.resolve(mapDir, map.sources[segment[1]!]!) : BUNDLER_RUNTIME;
      bytes.set(source, (bytes.get(source) ?? 0) + (end - segment[0]));
    });
  });
  return bytes;
}

export async function initialScriptBreakdown(root: string): Promise<ScriptShare[]> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'threadline-script-breakdown-'));
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: true },
    });
    const shares = new Map<string, ScriptShare>();
    for (const file of initialScripts(fs.readFileSync(path.join(outDir, 'index.html'), 'utf8'))) {
      const chunkPath = path.join(outDir, file);
      const code = fs.readFileSync(chunkPath, 'utf8');
      // Source map columns count characters, so shares are worked out per character.
      const gzipPerCharacter = zlib.gzipSync(code, { level: 9 }).length / code.length;
      const bySource = bytesBySource(code, fs.readFileSync(`${chunkPath}.map`, 'utf8'), path.dirname(chunkPath));
      const mapped = [...bySource.values()].reduce((sum, raw) => sum + raw, 0);
      bySource.set(BUNDLER_RUNTIME, (bySource.get(BUNDLER_RUNTIME) ?? 0) + code.length - mapped);
      for (const [source, raw] of bySource) {
        const group = source === BUNDLER_RUNTIME ? source : groupOf(source, root);
        const share = shares.get(group) ?? { group, raw: 0, gzip: 0 };
        share.raw += raw;
        share.gzip += raw * gzipPerCharacter;
        shares.set(group, share);
      }
    }
    return [...shares.values()].sort((a, b) => b.gzip - a.gzip);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
