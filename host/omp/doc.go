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
//   - the permission-denied classifier (classify.go);
//   - the host's own bash and write tools' approval declarations, per era
//     of their own (ToolEraFor: bash changes at 18.1.16, write at 18.3.4;
//     13.x and 14.x tools declare nothing): bash.patterns rules, the
//     critical pattern families, compound && chains and the Command: line
//     (bashtool.go, with the text scanners of shell.go), and write's
//     hashline headers, xd:// devices, ssh:// and internal URL schemes
//     (writetool.go). host/omp/conformance/tools holds them to the real tools of
//     17.3.5, 18.1.16, 18.2.9 and 18.3.4 (the last two on the nearest
//     published dependencies).
//
// Releases: the model follows every published release of the npm package
// @oh-my-pi/pi-coding-agent, 13.19.0, 14.9.9, 17.2.15, 17.3.5, 18.1.16,
// 18.1.17, 18.1.20, 18.1.21, 18.2.0, 18.2.3, 18.2.9 and 18.3.4 (Releases,
// oldest first; Newest), in four behaviour groups that are identical on
// everything a desk key reaches (GroupOf, Group.Releases; releases.go):
//
//   - G0, 13.19.0 and 14.9.9: no approval gate. The wrapper emits tool_call,
//     honours a handler's block and runs the original input (a revision is
//     ignored); no dialog, policy or mode. No file-write fallback and no
//     classifier.
//   - G1, 17.2.15 and 17.3.5: the gate, but every deny, tool-owned ones
//     included, throws the user-policy text naming the resolution's
//     policyKey or the tool. No fallback, no classifier.
//   - G2, 18.1.16 … 18.2.0: the gate with denyError (tool-owned denies
//     carry the tool text), the fallback and the classifier.
//   - G3, 18.2.3, 18.2.9, 18.3.4: resolveApprovalFromContext — a
//     configured mode other than always-ask, write or yolo is yolo; a
//     tools.approval that is not a plain object is {}; a call without a
//     context (or settings) is always-ask with no user policies.
//
// Before 18.2.3 tools.approval is read raw with JavaScript's own-property
// rules: a string or an array has its indexes and "length", a number or a
// boolean nothing, null is {} (policies.go).
//
// The Go API: a Wrapper's Release field (a Version, from Lookup or
// ParseVersion) selects the group it behaves as; the zero Version is
// Reference, 18.1.16, the release host/omp/conformance installs (Release). The
// fallback and the classifier exist from 18.1.16 (Group.HasFallback);
// their Go types do not check a release. Changes lists every change at a
// group boundary and what desk input reaches it, for deskcheck drift.
//
// The adapter (ompcheck) lists the releases as scenario.Host.Releases (with
// Lacks naming fallback and classify-error before 18.1.16, so the engine
// reports those cases not applicable there) and the change points as
// Host.Changes. A scenario's Run behaves as scenario.Env.Release ("" is
// the newest); verifier.Run runs each case once on one release
// (RunOptions.Once), judges on one release (RunOptions.Pin, -host), or
// judges on every release a case's hosts range selects, once per group. A case whose behaviour splits a group (a tool
// declaration that changed inside one) is split by the scenario Kind's Group.
//
// Not modelled, because no desk key reaches them: the ACP approval bypass
// (acpApprovedArgs; in the sources from 18.2.3), a tool result's own
// isError failing the call (from 18.2.3), a tool_call handler's
// additionalContext forwarded after a successful call (18.3.4), and
// renamed tools' legacy names (18.2.3). 18.3.4 reads the mode through a
// config registry that rejects an unknown mode as a runtime override but
// only warns for one from a config file; given.mode stands for the
// configured value, so 18.3.4 is G3.
//
// Line references below are to 18.1.16 (with @oh-my-pi/pi-utils 18.1.16
// for the text sanitiser, and bun 1.4.2 for Bun.stripANSI and the error
// text of a safety check without text). Its src/tools/approval.ts,
// src/extensibility/extensions/wrapper.ts and
// src/tools/file-write-fallback.ts carry the reference logic below line for
// line, minus session grants. host/omp/conformance checks the model against
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
// over 1 MiB, a mounted xd:// device's own declaration (it reads session
// state; with no device mounted the write tool declares exec, as modelled)
// and file deletes. The compound && path of the bash tool needs a POSIX
// shell, which is host state: the model takes it to be bash. Everything the package needs from the
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

// Release names Reference as an npm package spec: the release
// host/omp/conformance installs and checks the model against.
const Release = "@oh-my-pi/pi-coding-agent@18.1.16"

// ReleaseRuntime names the runtime the release runs on, whose behaviour the
// model follows where the release leans on it (Bun.stripANSI, TypeError
// texts).
const ReleaseRuntime = "bun@1.4.2"
