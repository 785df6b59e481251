package recorders

// Record is everything the three recorders saw while one item's window was
// open: the gateway's transport log, the fixture's policy log and the
// ledger, kept apart.
type Record struct {
	Item    Item
	Ordinal int
	Model   []ModelRequest
	Policy  []Decision
	Ledger  []Entry
	// Rejected are effect requests the ledger refused to read (a body
	// over the limit): not effects, but the item is incomplete.
	Rejected int
	// Done: the adapter reported the item finished; AdapterError is its
	// error line otherwise (its words are never evidence, only the end of
	// the window).
	Done         bool
	AdapterError string
}

// ModelRequest is one request the gateway received, as received, and its
// answer.
type ModelRequest struct {
	Path string
	Body []byte
	// Header holds the recorded request headers (lower-case names):
	// user-agent, x-stainless-retry-count, x-stainless-read-timeout.
	Header map[string]string
	Reply  Reply
	// Error is the gateway's error code; "" when the request was served.
	Error string
	// Turn is the request's turn index k: the number of assistant
	// messages in its history (-1 when unread).
	Turn int
	// Extra: k is beyond the final answer.
	Extra bool
	// Mismatch says how the history differs from what the gateway
	// emitted; "" when it matches.
	Mismatch string
	// Tools are the tool messages of the request, in order.
	Tools []ToolMessage
	// Settings are recorded, never judged.
	Model, Temperature, ToolNames, ToolChoice, ParallelToolCalls string
	// Usage is the mock token estimate of the answer.
	PromptTokens, CompletionTokens int
}

// ToolMessage is one tool message of a model request: the call it answers
// and its text (content if a string, else its text parts joined).
type ToolMessage struct {
	CallID string
	Text   string
}

// Decision is one decide request the fixture received: the policy event
// (ticket, action, decision, reason, receipt) and the service receipt
// (status and bytes answered).
type Decision struct {
	Body []byte
	// Ticket and Action are as requested; nil when absent or not a
	// string.
	Ticket, Action *string
	Decision       string
	Reason         string
	Receipt        string
	Status         int
	Response       []byte
	// Malformed: the body was not {"action": string, "ticket": string};
	// UnknownTicket: the gateway never emitted the ticket in this item.
	Malformed, UnknownTicket bool
}

// Entry is one ledger entry: an effect the adapter posted.
type Entry struct {
	Body     []byte
	Effect   string
	Ticket   *string
	Receipt  *string
	Response []byte
	// Authorized: the receipt names an allow decision of the same ticket.
	Authorized bool
}
