// Package gateway is an executable model of a mock "permissions
// demonstration": a policy gateway that stands between an untrusted,
// scripted caller and three in-memory mock tools.
//
// It models, rule for rule:
//
//   - the fixed policy tables: two synthetic principals and their roles,
//     three registered actions with an exact per-action resource allowlist,
//     the roles each action permits and its argument schema (tables.go);
//   - canonical JSON (RFC 8785) and the "sha256:<hex>" argument digest that
//     binds an approval to exact arguments (canon.go);
//   - strict RFC 3339 timestamps compared as instants (timestamp.go);
//   - the per-request algorithm: the pre-state of the named approval, the
//     audit inputs, the ordered decision table (policy availability,
//     envelope, action, resource, role, argument schema, then for a
//     publication the approval's existence, use, state, expiry and binding),
//     dispatch on allow only, one audit event written after dispatch, one
//     response, and finally the caller's own handling of what it received
//     (model.go, decide.go);
//   - fourteen deliberate boundary bugs the model can be switched into
//     (faults.go).
//
// The principal, the clock and the approval registry are trusted fixture
// data; nothing is ever read from a request except its three envelope
// members. Every run starts from fresh state, so two runs share no records,
// drafts, publications, approvals or audit.
//
// Not modelled: there is no real tool behind the gateway. Reads return
// synthetic records, drafts and publications are entries in in-memory lists,
// and record notes are inert strings that nothing parses or executes. The
// audit log is ordinary mutable memory of a single process: it is not
// durable, not signed and not tamper-evident. A digest binding identifies
// exact content for this model; it is not a signature, and no identity is
// authenticated. There is no concurrency, no clock that moves during a run
// and no approval workflow: approval state changes only by consumption.
//
// The package executes nothing, touches no file and opens no connection.
// The model reads no package-level variable: the policy tables are
// constants or are handed out as fresh copies, and FaultList only describes
// the faults.
package gateway
