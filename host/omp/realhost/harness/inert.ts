// Makes the harness process inert before any module of the release is
// loaded: the file system calls the release's fallback code makes are
// answered by the current case's recorder, and every file-changing function
// of node:fs's module object throws instead (13.x and 14.x still make an
// empty ~/.omp/logs in the temporary home by a call this does not reach;
// the sandbox keeps every write inside the run's temporary folder).
// Nothing here copies release code; it only decides what the release's
// calls into node:fs see.
import * as path from "node:path";
import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);
const fsp = require("node:fs/promises") as Record<string, unknown>;
const fs = require("node:fs") as Record<string, unknown>;
const realWriteFileSync = (fs.writeFileSync as (file: string, data: string) => void).bind(fs);

/** The path steps of the running fallback case, as the Go recorders give them. */
export interface PathSteps {
	/** Creating a parent folder fails with this error when set, else succeeds (creating nothing). */
	mkdirError?: Error;
	/** Every parent folder creation asked for, in order. */
	mkdirs: string[];
}

let current: PathSteps | undefined;

/** Runs fn with steps answering the release's file system calls. */
export async function withPathSteps<T>(steps: PathSteps, fn: () => Promise<T>): Promise<T> {
	current = steps;
	try {
		return await fn();
	} finally {
		current = undefined;
	}
}

function refuse(name: string): (...args: unknown[]) => never {
	return (...args: unknown[]) => {
		throw new Error(`deskcheck conformance harness: ${name}(${args.map(a => JSON.stringify(a)).join(", ")}) refused; the harness never changes a file`);
	};
}

function outsideCase(name: string, args: unknown[]): Error {
	return new Error(`deskcheck conformance harness: ${name}(${JSON.stringify(args[0])}) outside a fallback case`);
}

// The fallback's parent-folder creation (mkdir -p of the target's folder).
fsp.mkdir = async (...args: unknown[]) => {
	if (!current) throw outsideCase("mkdir", args);
	current.mkdirs.push(String(args[0]));
	if (current.mkdirError) throw current.mkdirError;
	return undefined;
};
// resolveSyscallTarget: targets resolve lexically, as the Go recorders
// resolve them (no link is followed, because there is no file).
fsp.realpath = async (...args: unknown[]) => {
	if (!current) throw outsideCase("realpath", args);
	return path.resolve(String(args[0]));
};
fsp.lstat = async (...args: unknown[]) => {
	if (!current) throw outsideCase("lstat", args);
	const err = new Error(`ENOENT: no such file or directory, lstat '${String(args[0])}'`) as Error & { code: string };
	err.code = "ENOENT";
	throw err;
};

const mutatingAsync = [
	"appendFile", "chmod", "chown", "copyFile", "cp", "lchmod", "lchown", "link", "lutimes", "mkdtemp",
	"rename", "rm", "rmdir", "symlink", "truncate", "unlink", "utimes", "writeFile",
];
for (const name of mutatingAsync) fsp[name] = refuse(`fs.promises.${name}`);

const mutatingSync = [
	"appendFile", "chmod", "chown", "copyFile", "cp", "link", "mkdir", "mkdtemp", "rename", "rm", "rmdir",
	"symlink", "truncate", "unlink", "utimes", "writeFile",
];
for (const name of mutatingSync) {
	fs[name] = refuse(`fs.${name}`);
	fs[`${name}Sync`] = refuse(`fs.${name}Sync`);
}

// 13.x and 14.x open their log file when the logger module is imported;
// every write stream is a sink that keeps nothing (the file is never
// opened).
fs.createWriteStream = () => {
	const { Writable } = require("node:stream") as typeof import("node:stream");
	return new Writable({ write: (_chunk: unknown, _enc: unknown, done: () => void) => done() });
};

// Opening a file is allowed for reading only.
function readOnlyOpen(name: string, real: (...args: unknown[]) => unknown) {
	return (...args: unknown[]) => {
		const flags = args[1];
		if (flags === undefined || flags === "r" || flags === 0 || typeof flags === "function") return real(...args);
		return refuse(name)(...args);
	};
}
fsp.open = readOnlyOpen("fs.promises.open", (fsp.open as (...a: unknown[]) => unknown).bind(fsp));
fs.open = readOnlyOpen("fs.open", (fs.open as (...a: unknown[]) => unknown).bind(fs));
fs.openSync = readOnlyOpen("fs.openSync", (fs.openSync as (...a: unknown[]) => unknown).bind(fs));

/**
 * The one write the harness itself makes: a settings file for a release
 * whose settings refuse an unknown value as an override (18.3.4), inside
 * the temporary agent folder the driver created for this process only.
 */
const agentDir = process.env.PI_CODING_AGENT_DIR ?? "";
export function writeAgentFile(name: string, data: string): string {
	if (!agentDir || name.includes("/")) throw new Error("deskcheck harness: no temporary agent folder to write a settings file in");
	const file = path.join(agentDir, name);
	realWriteFileSync(file, data);
	return file;
}

syncBuiltinESMExports();

// Bun.write cannot be replaced (bun makes it read-only). The fallback is
// always handed a recording file, so the release never reaches Bun.write.
