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
// Reference: the wrapper and approval logic of upstream commit
// e3c6d1042a324e74035fa4917303240446f7166d; the fallback and classifier of
// upstream 4324de2c60d810ef19d4775a94dd194e57e6e33e.
//
// Not modelled: session grants (the model has no session manager, so the
// session id is always empty and the dialog always offers exactly
// "Approve" and "Deny"), the approval-preview waiter of the agent loop,
// tool_result handlers, dialog time-outs, the bash/write/xdev approval
// declarations and file deletes. Everything the package needs from the
// outside world (the select UI, the tool's executor, the writer, the parent
// directory creator, the path resolver) is an interface the caller
// supplies. The package executes nothing, touches no file and opens no
// connection: command strings are data.
//
// There is no package-level mutable state. Two runners in one process share
// no loop markers, handlers or registries.
package omp
