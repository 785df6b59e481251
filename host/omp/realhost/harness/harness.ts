// deskcheck's real-host harness for the OMP coding agent.
//
// A long-lived bun program driven by deskcheck-host (realhost) and
// the conformance tests. It speaks JSON lines: first it prints one hello
// line, {"hello": {release, bun, root, modules, adaptations}}, then for
// every request line {"id", "scenario", "given"} on standard input it
// prints one answer line, {"id", "observed"} or {"id", "error"}, and ends
// at the end of its input. Desk content only ever arrives on that pipe.
//
// What runs is the release's own code, imported from the release's folder
// (--root, the package folder holding src/): the tool wrapper
// (ExtensionToolWrapper) around a real ExtensionRunner whose tool_call
// handler is registered through the extension API, settings from the
// release's Settings, the RPC select path where the release has one, the
// file-write fallback and the permission-denied classifier. The harness
// supplies only what the host gets from outside, and all of it records: a
// select UI, a synthetic RPC client, a tool whose execute records its
// input, a file whose write records the attempt, and the path steps of
// inert.ts, which is imported first. Nothing is executed, no file outside
// the temporary agent folder is written, nothing touches the network.
//
// Releases differ in what they have; the harness finds out by looking
// (which modules exist, what they export, how many parameters a function
// takes), never by the version number, and lists what it adapted in the
// hello line.
import { type PathSteps, withPathSteps, writeAgentFile } from "./inert.ts";
import { ABSENT_FILE, type AbsentFound, findAbsent, installAbsent, touched } from "./absent.ts";
import * as fsSync from "node:fs";
import * as path from "node:path";

function argValue(name: string): string | undefined {
	const i = Bun.argv.indexOf(name);
	return i >= 0 ? Bun.argv[i + 1] : undefined;
}

const root = path.resolve(
	argValue("--root") ?? path.dirname(Bun.resolveSync("@oh-my-pi/pi-coding-agent/package.json", process.cwd())),
);
const src = path.join(root, "src");
const pkg = JSON.parse(fsSync.readFileSync(path.join(root, "package.json"), "utf8")) as { name?: string; version?: string };
const adaptations: string[] = [];
const modules: Record<string, boolean> = {};

function has(rel: string): boolean {
	const found = fsSync.existsSync(path.join(src, rel));
	modules[rel] = found;
	return found;
}
async function load(rel: string): Promise<Record<string, any>> {
	return await import(path.join(src, rel));
}
async function loadIf(rel: string): Promise<Record<string, any> | undefined> {
	return has(rel) ? await load(rel) : undefined;
}

// Dependencies at other versions than the release asks for (a
// nearest-dependency substitution): stand in for what they lack.
{
	let found: AbsentFound = { modules: [], exports: [] };
	const deps = ((pkg as { dependencies?: Record<string, string> }).dependencies ?? {}) as Record<string, string>;
	const off: string[] = [];
	for (const [name, want] of Object.entries(deps)) {
		if (!name.startsWith("@oh-my-pi/")) continue;
		try {
			const have = JSON.parse(fsSync.readFileSync(Bun.resolveSync(`${name}/package.json`, root), "utf8")).version;
			if (have !== want) off.push(`${name}@${have} (wants ${want})`);
		} catch {}
	}
	if (off.length > 0) {
		adaptations.push(`dependencies not at the release's versions: ${off.join(", ")}`);
		// What is absent, as the install found it for the release's
		// unchanged files (--absent), else scanned now.
		const known = argValue("--absent");
		found = known ? (JSON.parse(fsSync.readFileSync(known, "utf8")) as AbsentFound) : findAbsent(root);
		const r = installAbsent(root, found);
		if (r.modules.length + r.exports.length > 0) {
			adaptations.push(
				`absent from those dependencies, replaced by values that throw when used: ${r.modules.length} modules (${r.modules.join(", ")}) and ${r.exports.length} named exports (${r.exports.join(", ")})`,
			);
		}
		if (r.supplied.length > 0) {
			adaptations.push(
				`supplied instead of throwing: ${r.supplied.join(", ")} (registration hooks as no-ops; as upstream defines them, isNonBlankContext: a string whose trim is not empty, and splitUrlScheme: a leading scheme:// split into its lower-cased scheme and the rest)`,
			);
		}
	}
	// An install's first run keeps what it found (nothing, for a release
	// on its own dependencies) in the agent folder, for the install.
	if (Bun.argv.includes("--absent-out")) writeAgentFile(ABSENT_FILE, JSON.stringify(found));
}

// The logger: from 17.x it has setTransports; 13.x/14.x open their file at
// import, which inert.ts turned into a sink.
{
	const utils = await import(Bun.resolveSync("@oh-my-pi/pi-utils", root));
	const logger = utils.logger as { setTransports?: (o: object) => void } | undefined;
	if (typeof logger?.setTransports === "function") {
		logger.setTransports({ file: false, console: false });
		adaptations.push("logger: setTransports({file: false, console: false})");
	} else {
		adaptations.push("logger: no setTransports; every write stream is a sink that opens no file");
	}
}

const wrapperMod = await load("extensibility/extensions/wrapper.ts");
has("extensibility/extensions/wrapper.ts");
const runnerMod = await load("extensibility/extensions/runner.ts");
const loaderMod = await load("extensibility/extensions/loader.ts");
const eventBusMod = await load("utils/event-bus.ts");
const settingsMod = await load("config/settings.ts");
const approvalFound = has("tools/approval.ts");
const fallbackMod = await loadIf("tools/file-write-fallback.ts");
const rpcModeMod = await loadIf("modes/rpc/rpc-mode.ts");
const rpcFrameMod = await loadIf("modes/rpc/rpc-frame.ts");
const rpcInputMod = await loadIf("modes/rpc/rpc-input.ts");
const typesMod = await loadIf("extensibility/extensions/types.ts");

const { ExtensionToolWrapper } = wrapperMod;
const { ExtensionRunner } = runnerMod;
const { ExtensionRuntime, loadExtensionFromFactory } = loaderMod;
const { EventBus } = eventBusMod;
const { Settings } = settingsMod;

if (!approvalFound) adaptations.push("tools/approval.ts absent: the wrapper has no approval gate");
if (!fallbackMod) adaptations.push("tools/file-write-fallback.ts absent: no fallback or classify-error scenario");

const runnerParams = ExtensionRunner.length as number;
adaptations.push(
	runnerParams >= 7
		? `ExtensionRunner takes ${runnerParams} parameters: settings passed as the 7th`
		: `ExtensionRunner takes ${runnerParams} parameters: no settings parameter`,
);
const initializeSource = String(ExtensionRunner.prototype.initialize);
const initializeTakesMode = /\bmode\b/.test(initializeSource.slice(0, initializeSource.indexOf(")")));
adaptations.push(initializeTakesMode ? "initialize takes a mode: passed" : "initialize takes no mode");

// Settings: Settings.isolated(overrides), unless the release refuses an
// unknown value there (18.3.4 validates overrides); then the configured
// value goes through a settings file, as a user's would.
let settingsByFile = false;
try {
	Settings.isolated({ "tools.approvalMode": "deskcheck-probe" });
} catch {
	settingsByFile = typeof Settings.loadReadOnly === "function";
}
adaptations.push(
	settingsByFile
		? "settings: the release validates overrides, so given.mode and given.userPolicies go through a settings file (Settings.loadReadOnly with configFiles) in the temporary agent folder"
		: "settings: Settings.isolated(overrides)",
);

// The RPC select path.
type RpcStyle = "requestRpcSelect" | "requestRpcDialog" | "none";
let rpcStyle: RpcStyle = "none";
if (rpcModeMod?.requestRpcSelect && rpcModeMod?.RpcPendingExtensionRequests) rpcStyle = "requestRpcSelect";
else if (rpcModeMod?.requestRpcDialog && rpcModeMod?.RpcPendingExtensionRequests && typesMod?.getExtensionUISelectOptionLabel)
	rpcStyle = "requestRpcDialog";
const haveDispatcher = !!rpcModeMod?.RpcInputDispatcher;
const haveEncoder = !!rpcFrameMod?.RpcFrameEncoder;
const haveReader = typeof rpcInputMod?.readRpcInputFrames === "function";
switch (rpcStyle) {
	case "requestRpcSelect":
		adaptations.push("rpc select: the release's requestRpcSelect");
		break;
	case "requestRpcDialog":
		adaptations.push(
			"rpc select: requestRpcSelect not exported; the release's requestRpcDialog with method select, the release's option labels, and the answer read as value unless cancelled",
		);
		break;
	default:
		adaptations.push("rpc select: no RPC dialog path in the release; ui rpc uses the recording select UI and counts its requests");
}
if (rpcStyle !== "none") {
	if (!haveEncoder) adaptations.push("rpc: no RpcFrameEncoder; frames go to the client as objects");
	if (!haveReader) adaptations.push("rpc: no readRpcInputFrames; the client's lines are parsed with JSON.parse");
	if (!haveDispatcher) adaptations.push("rpc: no RpcInputDispatcher; answers resolve the pending request directly");
}

// Fixed by deskcheck's scenarios (host/omp/ompcheck).
const DEFAULT_TOOL = "seed_note";
const DEFAULT_SAFETY_CHECK = "Fictional seed shelf check";
const FALLBACK_TARGET = "/fictional/seed-shelf/card.txt";
const FALLBACK_CONTENT = "fictional seed note";
const DISCONNECT = "RPC client disconnected before extension UI response completed";
const CWD = "/fictional/seed-shelf";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Given = Record<string, Json>;
type Observed = Record<string, unknown>;

/** Anything the host calls that the harness does not expect: fail loudly. */
function unexpected(what: string): never {
	throw new Error(`deskcheck harness: unexpected call ${what}`);
}

/** An object whose every method throws; for collaborators the cases never reach. */
function refusing<T extends object>(name: string, allowed: Partial<T> = {}): T {
	return new Proxy(allowed as T, {
		get(target, key) {
			if (key in target) return (target as Record<PropertyKey, unknown>)[key];
			if (key === "then" || typeof key === "symbol") return undefined;
			return () => unexpected(`${name}.${String(key)}`);
		},
	});
}

const sessionManager = refusing<Record<string, unknown>>("sessionManager", {
	getCwd: () => CWD,
	getSessionId: () => "deskcheck-session",
});
const modelRegistry = refusing<Record<string, unknown>>("modelRegistry");
const runtimeActions = refusing<Record<string, unknown>>("actions");
const contextActions = refusing<Record<string, unknown>>("contextActions", {
	getModel: () => undefined,
	isIdle: () => true,
	abort: () => unexpected("abort"),
	hasPendingMessages: () => false,
	shutdown: () => unexpected("shutdown"),
	getContextUsage: () => undefined,
	compact: async () => unexpected("compact"),
	getSystemPrompt: () => [],
});

/** Scripted dialog answers: a string, or null for a dismissed dialog; past the end, dismissed. */
class Script {
	#answers: (string | null)[];
	#used = 0;
	constructor(answers: Json | undefined) {
		this.#answers = Array.isArray(answers) ? answers.map(a => (typeof a === "string" ? a : null)) : [];
	}
	next(): string | null {
		const a = this.#used < this.#answers.length ? this.#answers[this.#used] : null;
		this.#used++;
		return a;
	}
}

type Select = (title: string, options: unknown[], dialogOptions?: unknown) => Promise<string | undefined>;

/** A UI context whose select is given; every other method throws (the wrapper uses only select). */
function uiContext(select: Select) {
	return refusing<Record<string, unknown>>("ui", { select });
}

/**
 * The RPC transport between the release's select request path and a
 * synthetic client: frames go out through the release's encoder, the
 * client answers each select from the script, and its lines come back
 * through the release's input reader and dispatcher.
 */
class RpcWire {
	readonly pending = new rpcModeMod!.RpcPendingExtensionRequests();
	selectRequests = 0;
	#encoder = haveEncoder ? new rpcFrameMod!.RpcFrameEncoder() : undefined;
	#input!: ReadableStreamDefaultController<Uint8Array>;
	#reading: Promise<void>;
	#script: Script;

	constructor(script: Script) {
		this.#script = script;
		const stream = new ReadableStream<Uint8Array>({ start: c => void (this.#input = c) });
		const deliver = this.#dispatcher();
		if (haveReader) {
			this.#reading = rpcInputMod!.readRpcInputFrames(stream, deliver, (m: string) => unexpected(`rpc parse error: ${m}`));
		} else {
			this.#reading = (async () => {
				const decoder = new TextDecoder();
				let buf = "";
				for await (const chunk of stream) {
					buf += decoder.decode(chunk, { stream: true });
					let nl: number;
					while ((nl = buf.indexOf("\n")) >= 0) {
						const line = buf.slice(0, nl).trim();
						buf = buf.slice(nl + 1);
						if (line) deliver(JSON.parse(line));
					}
				}
			})();
		}
	}

	#dispatcher(): (parsed: unknown) => void {
		if (!haveDispatcher) {
			return parsed => {
				const p = parsed as { id: string };
				const entry = this.pending.get(p.id);
				if (entry) {
					this.pending.delete(p.id);
					entry.resolve(parsed);
				}
			};
		}
		const dispatcher = new rpcModeMod!.RpcInputDispatcher({
			deps: {
				handleCommand: async () => unexpected("handleCommand"),
				output: (frame: unknown) => this.#client(frame),
				errorResponse: (id: string | undefined, command: string, message: string) => ({
					id,
					type: "response",
					command,
					success: false,
					error: message,
				}),
				pendingExtensionRequests: this.pending,
				onHostToolResult: () => unexpected("onHostToolResult"),
				onHostToolUpdate: () => unexpected("onHostToolUpdate"),
				onHostUriResult: () => unexpected("onHostUriResult"),
			},
		});
		return parsed => dispatcher.dispatch(parsed);
	}

	/** The host's output: every frame the release writes goes to the client. */
	readonly output = (frame: object) => {
		if (!this.#encoder) return this.#client(frame);
		for (const line of this.#encoder.encodeFrames(frame)) this.#client(JSON.parse(line));
	};

	/** The synthetic client reads one frame and answers a select. */
	#client(frame: unknown) {
		const f = frame as Record<string, unknown>;
		if (f.type !== "extension_ui_request" || f.method !== "select") return;
		this.selectRequests++;
		const answer = this.#script.next();
		const response =
			answer === null
				? { type: "extension_ui_response", id: f.id, cancelled: true }
				: { type: "extension_ui_response", id: f.id, value: answer };
		// Delivered asynchronously, as a real client's line would be.
		queueMicrotask(() => this.#input.enqueue(new TextEncoder().encode(`${JSON.stringify(response)}\n`)));
	}

	/** The RPC UI's select, as the release's RPC UI context has it. */
	select(title: string, options: unknown[], dialogOptions?: unknown): Promise<string | undefined> {
		if (rpcStyle === "requestRpcSelect") {
			return rpcModeMod!.requestRpcSelect(this.pending, this.output, title, options, dialogOptions);
		}
		const d = dialogOptions as { timeout?: number } | undefined;
		return rpcModeMod!.requestRpcDialog(
			this.pending,
			this.output,
			dialogOptions,
			undefined,
			{ method: "select", title, options: options.map(typesMod!.getExtensionUISelectOptionLabel), timeout: d?.timeout },
			(r: Record<string, unknown>) => (r.cancelled ? undefined : typeof r.value === "string" ? r.value : undefined),
		);
	}

	/** The client goes away: end the input, as the RPC mode does at end of stdin. */
	async close() {
		this.#input.close();
		await this.#reading;
		this.pending.rejectAll?.(DISCONNECT);
	}
}

function safetyChecks(v: Json | undefined): Record<string, Json>[] {
	if (v === true) return [{ message: DEFAULT_SAFETY_CHECK }];
	if (typeof v === "string") return [{ message: v }];
	if (Array.isArray(v)) return v.map(c => ({ ...(c as Record<string, Json>) }));
	return [];
}

function message(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

let settingsFiles = 0;

/** The release's settings with the case's configured mode and user policies. */
async function caseSettings(given: Given): Promise<unknown> {
	const hasMode = typeof given.mode === "string";
	// tools.approval is read raw by the release: any JSON value is passed on.
	const hasPolicies = given.userPolicies !== undefined;
	if (settingsByFile) {
		// A value the release accepts as a runtime override behaves as the
		// same value configured; one it refuses (an unknown mode) goes
		// through a settings file, as a user's would.
		const overrides: Record<string, unknown> = {};
		if (hasMode) overrides["tools.approvalMode"] = given.mode;
		if (hasPolicies) overrides["tools.approval"] = given.userPolicies;
		try {
			return Settings.isolated(overrides);
		} catch {}
		const tools: Record<string, Json> = {};
		if (hasMode) tools.approvalMode = given.mode as Json;
		if (hasPolicies) tools.approval = given.userPolicies as Json;
		const text = JSON.stringify({ tools });
		// A settings file is text: it cannot hold a lone surrogate.
		if (/\\ud[89a-f][0-9a-f]{2}/i.test(text)) {
			throw new Inexpressible(
				"this release takes an unknown mode only from a settings file, and a settings file cannot hold the lone surrogate of this case's mode or policies",
			);
		}
		// The release reads the file with Bun's YAML reader, which takes a
		// "<<" key as a merge key however it is quoted or escaped.
		if (hasMergeKey(tools)) {
			throw new Inexpressible(
				'this release takes an unknown mode only from a settings file, whose YAML reader takes a "<<" key as a merge key: the file cannot hold this case\'s policies',
			);
		}
		// JSON is YAML: the file holds exactly the configured values.
		const file = writeAgentFile(`case-${++settingsFiles % 2}.yml`, text);
		return await Settings.loadReadOnly({ cwd: CWD, agentDir: process.env.PI_CODING_AGENT_DIR, configFiles: [file] });
	}
	const overrides: Record<string, unknown> = {};
	if (hasMode) overrides["tools.approvalMode"] = given.mode;
	if (hasPolicies) overrides["tools.approval"] = given.userPolicies;
	return Settings.isolated(overrides);
}

// The release's own bash and write tools, for a case naming one without an
// approval of its own: their declaration is computed by the release from
// the call's arguments (a command or a path is data, never executed).
// A Map: a tool named "constructor" or "__proto__" is no key of it.
const toolModules = new Map<string, { file: string; exportName: string }>([
	["bash", { file: "tools/bash.ts", exportName: "BashTool" }],
	["write", { file: "tools/write.ts", exportName: "WriteTool" }],
]);
const toolClasses = new Map<string, unknown>();
let toolsAdapted = false;

async function realTool(name: string, given: Given): Promise<Record<string, any> | undefined> {
	const spec = toolModules.get(name);
	if (!spec || given.approval !== undefined || !has(spec.file)) return undefined;
	if (!toolClasses.has(name)) toolClasses.set(name, (await load(spec.file))[spec.exportName]);
	const Tool = toolClasses.get(name) as (new (session: unknown) => Record<string, any>) | undefined;
	if (typeof Tool !== "function") return undefined;
	if (!toolsAdapted) {
		toolsAdapted = true;
		adaptations.push("given.tool bash/write without approval: the release's own tool object, execute replaced by a recorder");
	}
	const extra = given.settings && typeof given.settings === "object" && !Array.isArray(given.settings) ? given.settings : {};
	const overrides: Record<string, unknown> = { shellPath: "/bin/bash", ...extra };
	let settings: unknown;
	try {
		settings = Settings.isolated(overrides);
	} catch (err) {
		if (!settingsByFile) throw err;
		// Objects without a prototype: a settings key such as
		// "__proto__.x" makes an own member, never reaches Object.prototype.
		const tree: Record<string, unknown> = Object.create(null);
		for (const [k, v] of Object.entries(overrides)) {
			const parts = k.split(".");
			let node = tree;
			for (const p of parts.slice(0, -1)) {
				const next = Object.hasOwn(node, p) ? node[p] : undefined;
				if (next !== null && typeof next === "object") node = next as Record<string, unknown>;
				else node = node[p] = Object.create(null) as Record<string, unknown>;
			}
			node[parts[parts.length - 1]] = v;
		}
		const file = writeAgentFile(`tool-${++settingsFiles % 2}.yml`, JSON.stringify(tree));
		settings = await Settings.loadReadOnly({ cwd: CWD, agentDir: process.env.PI_CODING_AGENT_DIR, configFiles: [file] });
	}
	return new Tool({ cwd: CWD, settings, enableLsp: false });
}

async function runWrapper(given: Given): Promise<Observed> {
	const toolName = typeof given.tool === "string" ? given.tool : DEFAULT_TOOL;
	const repeat = typeof given.repeat === "number" && given.repeat > 0 ? given.repeat : 1;
	const settings = await caseSettings(given);
	const script = new Script(given.choices);
	const checks = safetyChecks(given.safetyCheck);

	// The recording select UI: every dialog's title, then the answer.
	const titles: string[] = [];
	let rpc: RpcWire | undefined;
	let rpcCount = 0;
	let ui: Record<string, unknown> | undefined;
	if (given.ui === "rpc" && rpcStyle !== "none") {
		rpc = new RpcWire(script);
		const wire = rpc;
		ui = uiContext(async (title, options, dialogOptions) => {
			titles.push(title);
			return wire.select(title, options, dialogOptions);
		});
	} else if (given.ui !== false) {
		const countRpc = given.ui === "rpc";
		ui = uiContext(async title => {
			titles.push(title);
			if (countRpc) rpcCount++;
			return script.next() ?? undefined;
		});
	}

	// The recording tool_call handler, registered through the extension API.
	let toolCalls = 0;
	const runtime = new ExtensionRuntime();
	const extension = await loadExtensionFromFactory(
		(pi: { on: (event: string, h: () => Promise<unknown>) => void }) => {
			pi.on("tool_call", async () => {
				toolCalls++;
				if (given.revise !== undefined) return { input: given.revise };
				return undefined;
			});
		},
		CWD,
		new EventBus(),
		runtime,
		"deskcheck-recorder",
	);
	// Extra arguments are ignored by releases that take fewer.
	const runner = new ExtensionRunner([extension], runtime, CWD, sessionManager, modelRegistry, undefined, settings);
	runner.initialize(runtimeActions, contextActions, undefined, ui, ui ? "rpc" : "print");

	// The inert tool: execute records the input it was given and runs nothing.
	const inputs: unknown[] = [];
	const execute = async (_id: string, params: unknown) => {
		inputs.push(params);
		return { content: [{ type: "text", text: "inert" }], details: undefined };
	};
	const real = await realTool(toolName, given);
	let declared: unknown;
	let declarations = 0;
	let tool: Record<string, any>;
	if (real) {
		// The release's own tool, its execute replaced by the recorder; its
		// first declaration (the first call's original input) is kept.
		real.execute = execute;
		const own = typeof real.approval === "function" ? real.approval.bind(real) : undefined;
		if (own) {
			real.approval = (...a: unknown[]) => {
				const d = own(...a);
				if (declarations++ === 0) {
					if (d instanceof Promise) d.then(v => void (declared = v), () => {});
					else declared = d;
				}
				return d;
			};
		}
		tool = real;
	} else {
		tool = {
			name: toolName,
			label: toolName,
			description: "deskcheck inert tool",
			parameters: { type: "object", properties: {} },
			...(given.approval !== undefined ? { approval: given.approval } : {}),
			execute,
		};
	}
	const wrapper = new ExtensionToolWrapper(tool, runner);

	let successes = 0;
	let lastError: unknown;
	let lastContext: Record<string, unknown> | undefined;
	for (let i = 1; i <= repeat; i++) {
		const id = `call-${i}`;
		const args = given.args !== undefined ? structuredClone(given.args) : {};
		const toolCall: Record<string, unknown> = {
			batchId: "deskcheck",
			index: 0,
			total: 1,
			toolCalls: [{ id, name: toolName }],
		};
		if (checks.length > 0) {
			toolCall.providerMetadata = { type: "computer", providerItemId: id, actions: [args], pendingSafetyChecks: checks };
		}
		const context: Record<string, unknown> = { settings, autoApprove: given.autoApprove === true, toolCall };
		lastContext = context;
		try {
			await wrapper.execute(id, args, undefined, undefined, context);
			successes++;
			lastError = undefined;
		} catch (err) {
			lastError = err ?? new Error(String(err));
		}
	}
	if (rpc) await rpc.close();

	const observed: Observed = {
		outcome: lastError === undefined ? "return" : "throw",
		effects: inputs.length,
		prompts: ui ? titles.length : 0,
		toolCalls,
		successfulCalls: successes,
		input: inputs.length > 0 ? inputs[inputs.length - 1] : null,
		errorIncludes: lastError === undefined ? null : message(lastError),
		promptIncludes: titles,
		rpcRequests: rpc ? rpc.selectRequests : rpcCount,
		providerSafetyApproved: lastContext?.providerSafetyApproved === true,
	};
	if (real) observed.declared = declarations === 0 ? null : typeof declared === "string" ? { tier: declared } : (declared ?? null);
	else {
		// A tool the case writes out declares what the case says: a bare
		// tier string is observed as {tier}, as the model observes it.
		const a = given.approval;
		observed.declared = a === undefined || a === null ? null : typeof a === "string" ? { tier: a } : a;
	}
	return observed;
}

function errorValue(v: Json | undefined): Error {
	const o = (v ?? {}) as Record<string, Json>;
	const err = new Error(typeof o.message === "string" ? o.message : "") as Error & { code?: string };
	if (typeof o.code === "string") err.code = o.code;
	return err;
}

class NotApplicable extends Error {}
/** Whether v holds an object with the own key "<<", at any depth. */
function hasMergeKey(v: unknown): boolean {
	if (Array.isArray(v)) return v.some(hasMergeKey);
	if (v === null || typeof v !== "object") return false;
	return Object.keys(v).some(k => k === "<<" || hasMergeKey((v as Record<string, unknown>)[k]));
}

/** The release has what the case needs but cannot be given its values. */
class Inexpressible extends NotApplicable {}

async function runFallback(given: Given): Promise<Observed> {
	if (!fallbackMod) throw new NotApplicable("this release has no file-write fallback (tools/file-write-fallback.ts)");
	const { addFileWriteFallback, writeFileWithFallback } = fallbackMod;
	const errors = [errorValue(given)];
	if (given.retryError !== undefined) errors.push(errorValue(given.retryError));
	const produced: unknown[] = [];
	let attempts = 0;
	let successes = 0;
	// The inert file: write records the attempt and fails as scripted.
	const file = {
		write: async (content: string) => {
			attempts++;
			if (attempts <= errors.length) {
				const err = errors[attempts - 1];
				produced.push(err);
				throw err;
			}
			successes++;
			return content.length;
		},
	};
	const steps: PathSteps = { mkdirs: [] };
	if (given.mkdirError !== undefined) steps.mkdirError = errorValue(given.mkdirError);

	let handlerCalls = 0;
	const behaviours = Array.isArray(given.handlers) ? given.handlers.map(String) : [];
	const disposers = behaviours.map(b =>
		addFileWriteFallback(async () => {
			handlerCalls++;
			if (b === "complete") return true;
			if (b === "fail") throw new Error("scripted handler failure");
			return false;
		}),
	);
	let thrown: unknown;
	let threw = false;
	try {
		await withPathSteps(steps, () => writeFileWithFallback(FALLBACK_TARGET, FALLBACK_CONTENT, file));
	} catch (err) {
		threw = true;
		thrown = err;
	} finally {
		for (const dispose of disposers) dispose();
	}
	const observed: Observed = {
		outcome: "return",
		effects: successes,
		primitiveAttempts: attempts,
		handlerCalls,
		errorIncludes: null,
		causeIncludes: null,
	};
	if (threw) {
		observed.outcome = produced.includes(thrown) ? "throw-same-error" : "throw";
		observed.errorIncludes = message(thrown);
		const cause = thrown instanceof Error ? thrown.cause : undefined;
		if (cause !== undefined && cause !== null) observed.causeIncludes = message(cause);
	}
	return observed;
}

function runClassify(given: Given): Observed {
	if (!fallbackMod) throw new NotApplicable("this release has no permission-denied classifier (tools/file-write-fallback.ts)");
	const text = typeof given.message === "string" ? given.message : "";
	let value: unknown;
	switch (given.kind) {
		case "object":
			value = typeof given.code === "string" ? { message: text, code: given.code } : { message: text };
			break;
		case "string":
			value = text;
			break;
		default:
			value = errorValue(given);
	}
	return { permissionDenied: fallbackMod.isPermissionDeniedError(value), effects: 0 };
}

async function answer(line: string): Promise<string> {
	let req: { id?: unknown; scenario?: unknown; given?: Given };
	try {
		req = JSON.parse(line);
	} catch (err) {
		return JSON.stringify({ id: null, error: `the request is not JSON: ${message(err)}` });
	}
	if (req === null || typeof req !== "object") return JSON.stringify({ id: null, error: "the request is not an object" });
	const out: Record<string, unknown> = { id: req.id ?? null };
	try {
		const given = req.given && typeof req.given === "object" ? req.given : {};
		switch (req.scenario) {
			case "wrapper":
				out.observed = await runWrapper(given);
				break;
			case "fallback":
				out.observed = await runFallback(given);
				break;
			case "classify-error":
				out.observed = runClassify(given);
				break;
			default:
				out.error = `unknown scenario ${JSON.stringify(req.scenario)}`;
		}
	} catch (err) {
		if (err instanceof NotApplicable) {
			out.notApplicable = err.message;
			if (err instanceof Inexpressible) out.inexpressible = true;
		}
		else out.error = `the harness could not run the case: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
	}
	if (touched.size > 0) {
		out.absentTouched = [...touched].sort();
		touched.clear();
	}
	return JSON.stringify(out);
}

process.stdout.write(
	`${JSON.stringify({
		hello: {
			package: pkg.name ?? "",
			release: pkg.version ?? "",
			bun: Bun.version,
			root,
			modules,
			adaptations,
		},
	})}\n`,
);

// One request line, one answer line, in order. Answers are batched while
// more requests are waiting, so a large desk costs one write per batch.
function write(text: string): Promise<void> {
	return new Promise(resolve => process.stdout.write(text, () => resolve()));
}
const decoder = new TextDecoder();
let pending = "";
const outBuf: string[] = [];
for await (const chunk of Bun.stdin.stream()) {
	pending += decoder.decode(chunk, { stream: true });
	let nl: number;
	while ((nl = pending.indexOf("\n")) >= 0) {
		const line = pending.slice(0, nl);
		pending = pending.slice(nl + 1);
		if (line.trim() === "") continue;
		outBuf.push(await answer(line));
	}
	if (outBuf.length > 0) {
		await write(`${outBuf.join("\n")}\n`);
		outBuf.length = 0;
	}
}
if (pending.trim() !== "") await write(`${await answer(pending)}\n`);
// The end of the input is the end of the run: timers the release's modules
// started keep no process alive.
process.exit(0);
