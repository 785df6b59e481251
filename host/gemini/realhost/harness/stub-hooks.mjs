// The module hooks stubs.mjs registers: bare specifiers outside the six
// real packages resolve to a stand-in module whose named exports are the
// names the importing file asks for.
import { isBuiltin } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const real = new Set(['shell-quote', 'web-tree-sitter', 'tree-sitter-bash', '@iarna/toml', 'zod', 'fast-levenshtein']);

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function bare(specifier) {
  return !(specifier.startsWith('.') || specifier.startsWith('/') || specifier.includes(':'));
}

export async function resolve(specifier, context, next) {
  if (isBuiltin(specifier) || !bare(specifier) || real.has(packageOf(specifier))) {
    return next(specifier, context);
  }
  const from = context.parentURL ?? '';
  return { url: `deskcheck-stand-in:${encodeURIComponent(specifier)}?from=${encodeURIComponent(from)}`, shortCircuit: true };
}

const ident = /^[A-Za-z_$][\w$]*$/;
const reserved = new Set(['default', 'class', 'function', 'const', 'let', 'var', 'new', 'delete', 'typeof', 'void', 'in',
  'instanceof', 'return', 'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'break', 'continue', 'throw', 'try',
  'catch', 'finally', 'with', 'yield', 'await', 'enum', 'export', 'import', 'super', 'this', 'null', 'true', 'false',
  'debugger', 'extends', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public']);

// namesFor reads, in the importing file, the names it imports from
// specifier: import {a, b as c}, import * as ns (and ns.x uses), export
// {a} from.
function namesFor(specifier, fromURL) {
  const names = new Set();
  let source = '';
  try {
    source = readFileSync(fileURLToPath(fromURL), 'utf8');
  } catch {
    return names;
  }
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const clause = new RegExp(`(?:import|export)\\s*([^;]*?)\\s*from\\s*['"]${quoted}['"]`, 'g');
  for (const m of source.matchAll(clause)) {
    const body = m[1];
    const braces = body.match(/\{([^}]*)\}/);
    if (braces) {
      for (const item of braces[1].split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0].trim();
        if (ident.test(name) && !reserved.has(name)) names.add(name);
      }
    }
    const star = body.match(/\*\s*as\s*([\w$]+)/);
    if (star) {
      for (const u of source.matchAll(new RegExp(`\\b${star[1].replace(/\$/g, '\\$')}\\.([A-Za-z_$][\\w$]*)`, 'g'))) {
        if (!reserved.has(u[1])) names.add(u[1]);
      }
    }
  }
  return names;
}

export async function load(url, context, next) {
  if (!url.startsWith('deskcheck-stand-in:')) {
    return next(url, context);
  }
  const rest = url.slice('deskcheck-stand-in:'.length);
  const q = rest.indexOf('?from=');
  const specifier = decodeURIComponent(rest.slice(0, q));
  const from = decodeURIComponent(rest.slice(q + 6));
  const lines = [`const s = globalThis.__deskcheckStandIn(${JSON.stringify(specifier)});`, 'export default s;'];
  for (const name of namesFor(specifier, from)) {
    lines.push(`export const ${name} = globalThis.__deskcheckStandIn(${JSON.stringify(specifier + '.' + name)});`);
  }
  return { format: 'module', source: lines.join('\n'), shortCircuit: true };
}
