// deskcheck conformance harness for the OMP host.
//
// Reads a desk (deskcheck's case-file format, cases/boundary-desk.json is
// one) from the path given as the first argument, or from standard input,
// runs every case through the published release's own code and prints one
// JSON line per case: {"id", "scenario", "observed"} with the observation
// keys deskcheck computes for that scenario, or {"id", "scenario", "error"}
// when the case could not be run.
//
// What runs is the release's code, imported from node_modules: the tool
// wrapper (ExtensionToolWrapper) around a real ExtensionRunner whose
// tool_call handler is registered through the extension API
// (loadExtensionFromFactory), settings from Settings.isolated, the RPC
// select path (requestRpcSelect, RpcPendingExtensionRequests,
// RpcFrameEncoder, readRpcInputFrames, RpcInputDispatcher), the file-write
// fallback (writeFileWithFallback, addFileWriteFallback) and the
// permission-denied classifier (isPermissionDeniedError). The harness only
// supplies what the host would get from outside: a recording select UI, a
// synthetic RPC client, a tool whose execute records its input, a file
// whose write records the attempt, and the path steps of inert.ts. Nothing
// is executed, no file is written and nothing touches the network.
//
// The only piece of release code this file reproduces is the one-line
// select of the RPC UI class, which the release keeps local to runRpcMode:
// it forwards to requestRpcSelect.
import { type PathSteps, withPathSteps } from "./inert.ts";

const { logger } = await import("@oh-my-pi/pi-utils");
// The release logs to a rotating file by default; the harness writes nothing.
logger.setTransports({ file: false, console: false });

const { ExtensionToolWrapper } = await import("@oh-my-pi/pi-coding-agent/extensibility/extensions/wrapper");
const { ExtensionRunner } = await import("@oh-my-pi/pi-coding-agent/extensibility/extensions/runner");
const { ExtensionRuntime, loadExtensionFromFactory } = await import(
	"@oh-my-pi/pi-coding-agent/extensibility/extensions/loader"
);
const { EventBus } = await import("@oh-my-pi/pi-coding-agent/utils/event-bus");
const { Settings } = await import("@oh-my-pi/pi-coding-agent/config/settings");
const { RpcPendingExtensionRequests, RpcInputDispatcher, requestRpcSelect } = await import(
	"@oh-my-pi/pi-coding-agent/modes/rpc/rpc-mode"
);
const { RpcFrameEncoder } = await import("@oh-my-pi/pi-coding-agent/modes/rpc/rpc-frame");
const { readRpcInputFrames } = await import("@oh-my-pi/pi-coding-agent/modes/rpc/rpc-input");
const { addFileWriteFallback, isPermissionDeniedError, writeFileWithFallback } = await import(
	"@oh-my-pi/pi-coding-agent/tools/file-write-fallback"
);

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
	throw new Error(`deskcheck conformance harness: unexpected call ${what}`);
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

/** A UI context whose select is given; every other method throws (the wrapper uses only select). */
function uiContext(select: (title: string, options: unknown[], dialogOptions?: unknown) => Promise<string | undefined>) {
	return refusing<Record<string, unknown>>("ui", { select });
}

/**
 * The RPC transport between the release's select request path and a
 * synthetic client: frames go out through the release's encoder, the
 * client answers each select from the script, and its lines come back
 * through the release's input reader and dispatcher.
 */
class RpcWire {
	readonly pending = new RpcPendingExtensionRequests();
	selectRequests = 0;
	#encoder = new RpcFrameEncoder();
	#input!: ReadableStreamDefaultController<Uint8Array>;
	#reading: Promise<void>;
	#script: Script;

	constructor(script: Script) {
		this.#script = script;
		const stream = new ReadableStream<Uint8Array>({ start: c => void (this.#input = c) });
		const dispatcher = new RpcInputDispatcher({
			deps: {
				handleCommand: async () => unexpected("handleCommand"),
				output: (frame: unknown) => this.#client(frame),
				errorResponse: (id: string | undefined, command: string, message: string) => ({
					id, type: "response", command, success: false, error: message,
				}),
				pendingExtensionRequests: this.pending,
				onHostToolResult: () => unexpected("onHostToolResult"),
				onHostToolUpdate: () => unexpected("onHostToolUpdate"),
				onHostUriResult: () => unexpected("onHostUriResult"),
			},
		});
		this.#reading = readRpcInputFrames(
			stream,
			parsed => dispatcher.dispatch(parsed),
			message => unexpected(`rpc parse error: ${message}`),
		);
	}

	/** The host's output: every frame the release writes goes to the client. */
	readonly output = (frame: object) => {
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

	/** The client goes away: end the input, as the RPC mode does at end of stdin. */
	async close() {
		this.#input.close();
		await this.#reading;
		this.pending.rejectAll(DISCONNECT);
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

async function runWrapper(given: Given): Promise<Observed> {
	const toolName = typeof given.tool === "string" ? given.tool : DEFAULT_TOOL;
	const repeat = typeof given.repeat === "number" && given.repeat > 0 ? given.repeat : 1;
	const overrides: Record<string, unknown> = {};
	if (typeof given.mode === "string") overrides["tools.approvalMode"] = given.mode;
	if (given.userPolicies && typeof given.userPolicies === "object") overrides["tools.approval"] = given.userPolicies;
	const settings = Settings.isolated(overrides as never);
	const script = new Script(given.choices);
	const checks = safetyChecks(given.safetyCheck);

	// The recording select UI: every dialog's title, then the answer.
	const titles: string[] = [];
	let rpc: RpcWire | undefined;
	let ui: Record<string, unknown> | undefined;
	if (given.ui === "rpc") {
		rpc = new RpcWire(script);
		const wire = rpc;
		// The RPC UI's select, as runRpcMode's RpcExtensionUIContext has it.
		const rpcSelect = (title: string, options: unknown[], dialogOptions?: unknown) =>
			requestRpcSelect(wire.pending, wire.output, title, options as never, dialogOptions as never);
		ui = uiContext(async (title, options, dialogOptions) => {
			titles.push(title);
			return rpcSelect(title, options, dialogOptions);
		});
	} else if (given.ui !== false) {
		ui = uiContext(async title => {
			titles.push(title);
			return script.next() ?? undefined;
		});
	}

	// The recording tool_call handler, registered through the extension API.
	let toolCalls = 0;
	const runtime = new ExtensionRuntime();
	const extension = await loadExtensionFromFactory(
		pi => {
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
	const runner = new ExtensionRunner([extension], runtime, CWD, sessionManager as never, modelRegistry as never, undefined, settings);
	runner.initialize(runtimeActions as never, contextActions as never, undefined, ui as never, ui ? "rpc" : "print");

	// The inert tool: execute records the input it was given and runs nothing.
	const inputs: unknown[] = [];
	const tool = {
		name: toolName,
		label: toolName,
		description: "deskcheck inert tool",
		parameters: { type: "object", properties: {} },
		...(given.approval !== undefined ? { approval: given.approval } : {}),
		execute: async (_id: string, params: unknown) => {
			inputs.push(params);
			return { content: [{ type: "text", text: "inert" }], details: undefined };
		},
	};
	const wrapper = new ExtensionToolWrapper(tool as never, runner);

	let successes = 0;
	let lastError: unknown;
	let lastContext: Record<string, unknown> | undefined;
	for (let i = 1; i <= repeat; i++) {
		const id = `call-${i}`;
		const args = given.args !== undefined ? structuredClone(given.args) : {};
		const toolCall: Record<string, unknown> = { batchId: "deskcheck", index: 0, total: 1, toolCalls: [{ id, name: toolName }] };
		if (checks.length > 0) {
			toolCall.providerMetadata = { type: "computer", providerItemId: id, actions: [args], pendingSafetyChecks: checks };
		}
		const context: Record<string, unknown> = { settings, autoApprove: given.autoApprove === true, toolCall };
		lastContext = context;
		try {
			await wrapper.execute(id, args as never, undefined, undefined, context as never);
			successes++;
			lastError = undefined;
		} catch (err) {
			lastError = err ?? new Error(String(err));
		}
	}
	if (rpc) await rpc.close();

	return {
		outcome: lastError === undefined ? "return" : "throw",
		effects: inputs.length,
		prompts: ui ? titles.length : 0,
		toolCalls,
		successfulCalls: successes,
		input: inputs.length > 0 ? inputs[inputs.length - 1] : null,
		errorIncludes: lastError === undefined ? null : message(lastError),
		promptIncludes: titles,
		rpcRequests: rpc ? rpc.selectRequests : 0,
		providerSafetyApproved: lastContext?.providerSafetyApproved === true,
	};
}

function errorValue(v: Json | undefined): Error {
	const o = (v ?? {}) as Record<string, Json>;
	const err = new Error(typeof o.message === "string" ? o.message : "") as Error & { code?: string };
	if (typeof o.code === "string") err.code = o.code;
	return err;
}

async function runFallback(given: Given): Promise<Observed> {
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
		await withPathSteps(steps, () => writeFileWithFallback(FALLBACK_TARGET, FALLBACK_CONTENT, file as never));
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
	return { permissionDenied: isPermissionDeniedError(value), effects: 0 };
}

async function readDesk(): Promise<{ cases?: unknown[] }> {
	const file = Bun.argv[2];
	const text = file && file !== "-" ? await Bun.file(file).text() : await new Response(Bun.stdin.stream()).text();
	return JSON.parse(text);
}

const desk = await readDesk();
const out: string[] = [];
for (const raw of desk.cases ?? []) {
	const c = raw as { id?: string; scenario?: string; given?: Given };
	const line: Record<string, unknown> = { id: c.id, scenario: c.scenario };
	try {
		const given = c.given ?? {};
		switch (c.scenario) {
			case "wrapper":
				line.observed = await runWrapper(given);
				break;
			case "fallback":
				line.observed = await runFallback(given);
				break;
			case "classify-error":
				line.observed = runClassify(given);
				break;
			default:
				line.error = `unknown scenario ${JSON.stringify(c.scenario)}`;
		}
	} catch (err) {
		line.error = `the harness could not run the case: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
	}
	out.push(JSON.stringify(line));
	if (out.length >= 256) {
		process.stdout.write(`${out.join("\n")}\n`);
		out.length = 0;
	}
}
if (out.length > 0) process.stdout.write(`${out.join("\n")}\n`);
