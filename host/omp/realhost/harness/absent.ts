// Stand-ins for what a release's sources import from its @oh-my-pi
// dependencies when those are not installed at the release's own version
// (a nearest-dependency substitution, spec §1 notes: 18.3.4). Found by
// looking: every static import of the release's src/ from another
// @oh-my-pi package is resolved against what is installed, and each module
// that does not exist, and each named export a module lacks, is replaced
// through a bun plugin by a value that throws when used, records that it
// was touched, and is reported. Exceptions, reported too: the import-time
// registration hooks (no-ops), and the two functions the release's driven
// code calls, supplied as upstream defines them: isNonBlankContext, which
// the wrapper calls on every call (true for a string whose trim is not
// empty), and splitUrlScheme, the write tool's URL router (a leading
// `scheme://`: its scheme lower-cased, and the text after it).
import * as fs from "node:fs";
import * as path from "node:path";

export interface AbsentReport {
	modules: string[];
	exports: string[];
	supplied: string[];
}

export const touched = new Set<string>();

/** The file (in the agent folder) a run asked for --absent-out writes. */
export const ABSENT_FILE = "deskcheck-absent.json";

const NOOP_HOOKS = new Set(["setInternalUrlSchemeHost", "setWordPredictionHost"]);

const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** Functions the driven code calls, supplied as upstream defines them, by module and name. */
const SUPPLIED: Record<string, unknown> = {
	"@oh-my-pi/pi-agent-core:isNonBlankContext": (v: unknown) => typeof v === "string" && v.trim() !== "",
	"@oh-my-pi/pi-tui/tools/url-scheme-host:splitUrlScheme": (input: string) => {
		const m = URL_SCHEME.exec(input);
		return m ? { scheme: m[1].toLowerCase(), rest: input.slice(m[0].length) } : undefined;
	},
};

/** Whether name of spec, missing, gets a value that does not throw. */
function supplied(spec: string, name: string): boolean {
	return NOOP_HOOKS.has(name) || Object.hasOwn(SUPPLIED, `${spec}:${name}`);
}

/** The stand-in for name of spec. */
export function absentValue(spec: string, name: string): unknown {
	const what = `${spec}:${name}`;
	if (NOOP_HOOKS.has(name)) return () => undefined;
	if (Object.hasOwn(SUPPLIED, what)) return SUPPLIED[what];
	const fail = () => {
		touched.add(what);
		throw new Error(`deskcheck harness: ${what} is not in the installed (substituted) dependencies`);
	};
	return new Proxy(function absent() {}, {
		apply: fail,
		construct: fail,
		get(_t, key) {
			if (typeof key === "symbol" || key === "then" || key === "prototype") return undefined;
			return fail();
		},
	});
}

const IMPORT_RE =
	/(?:import|export)\s+(type\s+)?(?:\*\s+as\s+\w+|\{([^}]*)\}|(\w+))?\s*(?:,\s*\{([^}]*)\})?\s*from\s*["'](@oh-my-pi\/[^"']+)["']/g;
const STAR_RE = /export\s*\*\s*from\s*["']([^"']+)["']/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory()) sourceFiles(p, out);
		else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
	}
	return out;
}

const transpiler = new Bun.Transpiler({ loader: "tsx" });

/** The names a module file exports, following export * chains. */
function exportedNames(file: string, seen = new Set<string>()): Set<string> {
	const names = new Set<string>();
	if (seen.has(file)) return names;
	seen.add(file);
	let code: string;
	try {
		code = fs.readFileSync(file, "utf8");
	} catch {
		return names;
	}
	if (!/\.[cm]?[jt]sx?$/.test(file)) return names;
	try {
		for (const n of transpiler.scan(code).exports) names.add(n);
	} catch {
		// TypeScript the scanner does not take: the patterns below still apply.
	}
	// Declarations and re-exports the scan does not list.
	for (const m of code.matchAll(/export\s+(?:declare\s+)?(?:const|let|var|class|enum|namespace|(?:async\s+)?function\*?)\s+(\w+)/g))
		names.add(m[1]);
	for (const m of code.matchAll(/export\s*\*\s*as\s+(\w+)/g)) names.add(m[1]);
	for (const m of code.matchAll(/export\s*(?:type\s*)?\{([^}]*)\}/g)) {
		for (const part of m[1].split(",")) {
			const n = part.trim().split(/\s+as\s+/).pop()?.trim();
			if (n && !n.startsWith("type ")) names.add(n);
		}
	}
	for (const m of code.matchAll(STAR_RE)) {
		try {
			const target = Bun.resolveSync(m[1], path.dirname(file));
			for (const n of exportedNames(target, seen)) names.add(n);
		} catch {}
	}
	return names;
}

/**
 * What a release's sources import that its installed dependencies lack:
 * modules that do not resolve, with the names imported from them, and
 * modules that lack names, by their file relative to the release's real
 * folder. It depends only on the release's files, so an install keeps it
 * and a run of the unchanged release reads it instead of scanning again.
 */
export interface AbsentFound {
	modules: [string, string[]][];
	exports: [string, string, string[]][];
}

/** Scans the release at root for what is absent. */
export function findAbsent(root: string): AbsentFound {
	const wanted = new Map<string, Set<string>>();
	for (const file of sourceFiles(path.join(root, "src"))) {
		const code = fs.readFileSync(file, "utf8");
		for (const m of code.matchAll(IMPORT_RE)) {
			if (m[1]) continue;
			const spec = m[5];
			if (spec.startsWith("@oh-my-pi/pi-coding-agent")) continue;
			const set = wanted.get(spec) ?? new Set<string>();
			for (const list of [m[2], m[4]]) {
				if (!list) continue;
				for (let n of list.split(",")) {
					n = n.trim();
					if (!n || n.startsWith("type ")) continue;
					set.add(n.split(/\s+as\s+/)[0].trim());
				}
			}
			if (m[3]) set.add("default");
			wanted.set(spec, set);
		}
	}
	const real = fs.realpathSync(root);
	const found: AbsentFound = { modules: [], exports: [] };
	for (const [spec, names] of wanted) {
		let file: string;
		try {
			file = Bun.resolveSync(spec, root);
		} catch {
			found.modules.push([spec, [...names].sort()]);
			continue;
		}
		const have = exportedNames(file);
		const lack = [...names].filter(n => n !== "default" && !have.has(n)).sort();
		if (lack.length === 0) continue;
		const rel = path.relative(real, fs.realpathSync(file));
		// One module reached by two specifiers keeps its first place and
		// the last specifier's names, as a map keyed by its file does.
		const at = found.exports.findIndex(e => e[0] === rel);
		if (at >= 0) found.exports[at] = [rel, spec, lack];
		else found.exports.push([rel, spec, lack]);
	}
	return found;
}

/** Finds what is absent and installs the plugin that stands in for it. */
export function installAbsent(root: string, known?: AbsentFound): AbsentReport {
	const found = known ?? findAbsent(root);
	const real = fs.realpathSync(root);
	const missingModules = new Map<string, string[]>(found.modules);
	const missingExports = new Map<string, { spec: string; names: string[] }>();
	for (const [rel, spec, names] of found.exports) missingExports.set(path.resolve(real, rel), { spec, names });
	const report: AbsentReport = { modules: [], exports: [], supplied: [] };
	if (missingModules.size === 0 && missingExports.size === 0) return report;
	(globalThis as Record<string, unknown>).__deskcheckAbsent = absentValue;
	// Unique local names, exported under the names asked for, so that a
	// module's own locals never clash with a stand-in.
	let serial = 0;
	const stubSource = (spec: string, names: string[]) =>
		names
			.map(n => {
				const local = `__deskcheck_absent_${serial++}`;
				return `const ${local} = globalThis.__deskcheckAbsent(${JSON.stringify(spec)}, ${JSON.stringify(n)});\nexport { ${local} as ${n} };`;
			})
			.join("\n");
	for (const [spec, names] of missingModules) {
		report.modules.push(spec);
		for (const n of names) if (supplied(spec, n)) report.supplied.push(`${spec}:${n}`);
	}
	for (const { spec, names } of missingExports.values()) {
		for (const n of names) {
			report.exports.push(`${spec}:${n}`);
			if (supplied(spec, n)) report.supplied.push(`${spec}:${n}`);
		}
	}
	Bun.plugin({
		name: "deskcheck-absent",
		setup(build) {
			for (const [spec, names] of missingModules) {
				build.module(spec, () => ({ contents: stubSource(spec, names), loader: "js" }));
			}
			for (const [file, { spec, names }] of missingExports) {
				const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
				build.onLoad({ filter: new RegExp(`^${escaped}$`) }, () => ({
					contents: `${fs.readFileSync(file, "utf8")}\n${stubSource(spec, names)}\n`,
					loader: file.endsWith(".tsx") ? "tsx" : "ts",
				}));
			}
		},
	});
	return report;
}
