// A bun preload plugin for releases whose exact @oh-my-pi dependencies are
// not published (18.3.4, spec §1): run on the nearest published ones, some
// modules and named exports the release imports do not exist. Each missing
// one is replaced by a value that records and throws when it is called or
// constructed (reading a property gives another such value, so module
// set-up that only passes them around still loads). Three are supplied
// instead, as the spec's notes say: the scheme-host registration and the
// completion-host registration (no-ops), and splitUrlScheme (the write
// tool's URL router: the scheme of a leading `scheme://`, lower-cased, and
// the rest), written here from upstream's description. tools.ts reports
// every missing value a case touched. The stub modules live in a temporary
// folder removed at exit.
//
// Usage: bun --preload ./absent-exports.ts tools.ts RELEASE_DIR
import { plugin } from "bun";
import * as fs from "node:fs";
import * as path from "node:path";

export const touched: string[] = [];
(globalThis as Record<string, unknown>).__deskcheckAbsentTouched = touched;

function absent(name: string): unknown {
	const target = function () {};
	return new Proxy(target, {
		apply() {
			touched.push(name);
			throw new Error(`deskcheck: ${name} is absent from the nearest published dependencies`);
		},
		construct() {
			touched.push(name);
			throw new Error(`deskcheck: ${name} is absent from the nearest published dependencies`);
		},
		get(t, key) {
			if (key === Symbol.toPrimitive) return () => `[absent ${name}]`;
			if (key === "prototype") return (t as { prototype: unknown }).prototype;
			if (typeof key === "symbol" || key === "then") return undefined;
			return absent(`${name}.${String(key)}`);
		},
	});
}
(globalThis as Record<string, unknown>).__deskcheckAbsent = absent;

const supplied: Record<string, string> = {
	setInternalUrlSchemeHost: "() => {}",
	setInternalUrlCompletionHost: "() => {}",
	splitUrlScheme:
		"(input) => { const m = /^([a-z][a-z0-9+.-]*):\\/\\//i.exec(input); return m ? { scheme: m[1].toLowerCase(), rest: input.slice(m[0].length) } : undefined; }",
};

function exported(src: string, name: string): boolean {
	if (name === "default") return /export\s+default\b/.test(src);
	const decl = new RegExp(`export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|class|enum|abstract\\s+class)\\s+${name}\\b`);
	if (decl.test(src)) return true;
	for (const m of src.matchAll(/export\s*\{([^}]*)\}/g)) {
		for (const part of m[1].split(",")) {
			const t = part.trim().split(/\s+as\s+/);
			if ((t[1] ?? t[0]).trim() === name) return true;
		}
	}
	return false;
}

function stubSource(spec: string, names: Iterable<string>, have = ""): string {
	let out = "";
	for (const n of names) {
		if (have && exported(have, n)) continue;
		const value = supplied[n] ?? `globalThis.__deskcheckAbsent(${JSON.stringify(`${spec}#${n}`)})`;
		out += n === "default" ? `export default ${value};\n` : `export const ${n} = ${value};\n`;
	}
	return out;
}

// Bun's runtime plugins see no bare-package resolution, so the release's
// own modules are rewritten on load instead: an import of a module that does
// not exist, or of names a module lacks, is pointed at a generated stub file
// (in a temporary folder) that supplies them.
const stubDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "deskcheck-absent-"));
process.on("exit", () => fs.rmSync(stubDir, { recursive: true, force: true }));
let stubs = 0;
const cache = new Map<string, string>();
function target(spec: string, fromDir: string, names: string[]): string | null {
	let resolved: string | null = null;
	try {
		resolved = Bun.resolveSync(spec, fromDir);
	} catch {}
	let have = "";
	let missing = names;
	if (resolved) {
		have = fs.readFileSync(resolved, "utf8");
		try {
			// The dependency's real exports (it is loaded now rather than a
			// moment later).
			const mod = require(resolved) as Record<string, unknown>;
			missing = names.filter(n => !(n in mod));
		} catch {
			missing = names.filter(n => !exported(have, n));
		}
		if (missing.length === 0) return null;
	}
	const key = `${resolved ?? spec}|${names.join(",")}`;
	const hit = cache.get(key);
	if (hit) return hit;
	const file = path.join(stubDir, `stub-${stubs++}.js`);
	let src = resolved ? `export * from ${JSON.stringify(resolved)};\n` : "";
	src += stubSource(spec, missing);
	fs.writeFileSync(file, src);
	cache.set(key, file);
	return file;
}

const oneImport = /((?:import|export)\s+)(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+(?:\s*,\s*\{[^}]*\})?)(\s+from\s+)(["'])(@oh-my-pi\/[^"']+)\5/g;

plugin({
	name: "deskcheck-absent-exports",
	setup(build) {
		build.onLoad({ filter: /node_modules\/@oh-my-pi\/pi-coding-agent\/src\/.*\.ts$/ }, args => {
			const src = fs.readFileSync(args.path, "utf8");
			const fromDir = path.dirname(args.path);
			const out = src.replace(oneImport, (all, kw, type, what, from, q, spec) => {
				if (type) return all;
				const names: string[] = [];
				const braces = /\{([^}]*)\}/.exec(what);
				if (braces) {
					for (const part of braces[1].split(",")) {
						const t = part.trim();
						if (t && !t.startsWith("type ")) names.push(t.split(/\s+as\s+/)[0].trim());
					}
				}
				if (/^\w+/.test(what) && !what.startsWith("*")) names.push("default");
				const file = target(spec, fromDir, names);
				return file ? `${kw}${what}${from}${q}${file}${q}` : all;
			});
			return { contents: out, loader: "ts" };
		});
	},
});
