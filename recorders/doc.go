// Package recorders holds the three recorders of the boundary-response
// arena: the mock model gateway (enough of OpenAI's Chat Completions API for
// an agent framework to run its tool loop, with scripted replies), the
// policy fixture service (one decision and one reason per request) and the
// separate effect ledger (the synthetic world an allowed action changes).
//
// The recorders are what an item is judged on: every request they receive
// is recorded before it is answered, and the per-item observations
// (Observe) are read from their three records alone, joined by the call ids
// and tickets the gateway itself emitted. Nothing an adapter says about
// itself counts.
//
// The core is transport-free: Session.Complete, Session.Decide and
// Session.Effect take a request body and return a status and a body, so a
// model of an adapter calls them directly and opens no socket, and the HTTP
// handlers (GatewayHandler, FixtureHandler) and servers (Serve) wrap the
// same functions for a real adapter, on loopback TCP or on a Unix socket.
//
// The package imports nothing of deskcheck's engine.
package recorders
