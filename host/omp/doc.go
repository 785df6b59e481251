// Package omp is an executable model of the approval code of the OMP
// (oh-my-pi) coding agent, the host the boundary desk was authored against.
//
// It models, rule for rule, the reference version named below:
//
//   - approval resolution: decision normalisation, the nine-row decision
//     order, deny error texts, the prompt body and its truncation
//     (approval.go);
//   - the extension tool wrapper: loop marker, deny on the original input,
//     tool_call emission and input revision, the full gate on the revised
//     input, provider safety checks, the no-UI refusals and the select
//     dialog (wrapper.go, runner.go);
//   - UI capability: a runner has a UI unless it holds its own no-op UI
//     (runner.go);
//   - the RPC select transport over a byte stream of JSON lines (rpc.go);
//   - the file-write fallback and its handler registry (fallback.go);
//   - the permission-denied classifier (classify.go).
//
// Release: the model follows the published npm package
// @oh-my-pi/pi-coding-agent 18.1.16 (with @oh-my-pi/pi-utils 18.1.16 for
// the text sanitiser, and bun 1.4.2 for Bun.stripANSI and the error text of
// a safety check without text); see Release. Its src/tools/approval.ts,
// src/extensibility/extensions/wrapper.ts and
// src/tools/file-write-fallback.ts carry the reference logic below line for
// line, minus session grants. conformance/omp checks the model against
// that release's own code on every CI run.
//
// History: the model was first written from upstream sources, the wrapper
// and approval logic of commit e3c6d1042a324e74035fa4917303240446f7166d and
// the fallback and classifier of 4324de2c60d810ef19d4775a94dd194e57e6e33e.
// Where the release differs from them (trimming is ECMAScript trim; a
// safety check without text throws; sanitising follows pi-utils and
// Bun.stripANSI, on UTF-16 code units), the model follows the release.
//
// Not modelled: session grants (the model has no session manager, so the
// session id is always empty and the dialog always offers exactly
// "Approve" and "Deny"), the approval-preview waiter of the agent loop,
// tool_result handlers, dialog time-outs, the RPC encoder shrinking frames
// over 1 MiB, the bash/write/xdev approval
// declarations and file deletes. Everything the package needs from the
// outside world (the select UI, the tool's executor, the writer, the parent
// directory creator, the path resolver) is an interface the caller
// supplies. The package executes nothing, touches no file and opens no
// connection: command strings are data.
//
// Strings: the host's strings are UTF-16. A Go string that is not valid
// UTF-8 stands for a JavaScript string that is not well-formed (a lone
// surrogate, as its WTF-8 bytes); see js.go.
//
// There is no package-level mutable state. Two runners in one process share
// no loop markers, handlers or registries.
package omp

// Release names the published host release the model follows.
const Release = "@oh-my-pi/pi-coding-agent@18.1.16"

// ReleaseRuntime names the runtime the release runs on, whose behaviour the
// model follows where the release leans on it (Bun.stripANSI, TypeError
// texts).
const ReleaseRuntime = "bun@1.4.2"
