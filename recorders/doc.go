// Package recorders holds what observes a case run: an event trace, a
// scripted and recording select UI, a synthetic RPC client that speaks the
// host's frames over a byte stream, an inert executor, an inert writer with
// its path steps and fallback handlers, and a recording tool_call handler.
//
// Every counter a verdict rests on comes from these recorders, never from
// the case itself. Nothing here executes anything or touches a file: the
// executor and the writer only record what they were asked to do.
package recorders
