// deskcheck's differential for the OMP tools' own approval declarations.
//
// Usage: bun tools.ts RELEASE_DIR < cases.jsonl
//        bun --preload ./absent-exports.ts tools.ts RELEASE_DIR < cases.jsonl
//          (a release on the nearest published dependencies: 18.3.4)
//
// RELEASE_DIR holds an installed release (node_modules/@oh-my-pi/...). Each
// input line is {"id", "tool": "bash"|"write", "args": {...}, "settings":
// {...}}; each output line is {"id", "declared": <what the tool's approval
// returned>, "details": <its formatApprovalDetails lines>} or {"id",
// "error"} when the declaration threw.
//
// What runs is the release's own BashTool and WriteTool: the real tool
// objects, constructed on an isolated in-memory Settings, with execute
// replaced by a recorder that refuses. Only their approval and
// formatApprovalDetails are called: a command string or a path is data,
// classified by the release's code and never executed, and nothing is
// written. The harness copies no release code.
import * as path from "node:path";

const dir = process.argv[2];
if (!dir) {
	console.error("usage: bun tools.ts RELEASE_DIR < cases.jsonl");
	process.exit(2);
}
const src = (p: string) => path.join(dir, "node_modules", "@oh-my-pi", p);

const { logger } = await import(src("pi-utils/src/index.ts"));
// The release logs to a rotating file by default; the harness writes nothing.
logger.setTransports?.({ file: false, console: false });

const { Settings } = await import(src("pi-coding-agent/src/config/settings.ts"));
const { BashTool } = await import(src("pi-coding-agent/src/tools/bash.ts"));
const { WriteTool } = await import(src("pi-coding-agent/src/tools/write.ts"));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Case {
	id: string;
	tool: "bash" | "write";
	args: Record<string, Json>;
	settings?: Record<string, Json>;
}

// With absent-exports.ts preloaded (a release on the nearest published
// dependencies), the stand-ins a case touched are reported with its answer.
const touched = ((globalThis as Record<string, unknown>).__deskcheckAbsentTouched ?? []) as string[];

const executed: string[] = [];
/** The recorder that stands in for a tool's execute: it records and refuses. */
function recorder(name: string) {
	return async (..._args: unknown[]) => {
		executed.push(name);
		throw new Error(`deskcheck tools differential: ${name}.execute is never called`);
	};
}

// One pair of tools per distinct settings value: a tool reads its settings
// at each evaluation, through the session it was built with.
const tools = new Map<string, { bash: any; write: any }>();
function toolsFor(settings: Record<string, Json> | undefined) {
	const key = JSON.stringify(settings ?? {});
	let t = tools.get(key);
	if (!t) {
		const overrides: Record<string, unknown> = { shellPath: "/bin/bash", ...(settings ?? {}) };
		const session = {
			cwd: "/fictional/seed-shelf",
			settings: Settings.isolated(overrides as never),
			enableLsp: false,
		};
		const bash = new BashTool(session as never);
		const write = new WriteTool(session as never);
		bash.execute = recorder("bash");
		write.execute = recorder("write");
		t = { bash, write };
		tools.set(key, t);
	}
	return t;
}

const out: string[] = [];
const flush = () => {
	if (out.length > 0) {
		process.stdout.write(out.join(""));
		out.length = 0;
	}
};
let pending = "";
// One decoder for the whole stream: a character split across two chunks is
// decoded whole.
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
	pending += decoder.decode(chunk, { stream: true });
	let nl = pending.indexOf("\n");
	while (nl !== -1) {
		const line = pending.slice(0, nl);
		pending = pending.slice(nl + 1);
		if (line.trim() !== "") answer(line);
		nl = pending.indexOf("\n");
	}
	flush();
}
pending += decoder.decode();
if (pending.trim() !== "") answer(pending);
flush();
if (executed.length > 0) {
	console.error(`deskcheck tools differential: execute was called ${executed.length} times`);
	process.exit(1);
}

function answer(line: string) {
	const c = JSON.parse(line) as Case;
	const before = touched.length;
	let a: Record<string, unknown>;
	try {
		const tool = toolsFor(c.settings)[c.tool];
		const declared = tool.approval(c.args);
		const details = tool.formatApprovalDetails(c.args);
		a = { id: c.id, declared, details };
	} catch (err) {
		a = { id: c.id, error: err instanceof Error ? err.message : String(err) };
	}
	if (touched.length > before) a.absent = touched.slice(before);
	out.push(`${JSON.stringify(a)}\n`);
}
