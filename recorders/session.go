package recorders

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
)

// Contract is the version of the item contract the recorders serve.
const Contract = "arena/v1"

// Body limits: a larger request is answered 413 and recorded.
const (
	GatewayBodyLimit = 4 << 20
	FixtureBodyLimit = 64 << 10
)

// LabelPattern is what an action label must match: restricted ASCII, so no
// encoding question arises on the way through an HTTP client.
var LabelPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// Reasons a decision can carry. The last two are produced only by a broken
// adapter.
const (
	ReasonAllowed           = "allowed"
	ReasonProtectedPath     = "protected_path"
	ReasonDestination       = "destination_not_allowed"
	ReasonCredential        = "credential_exposure"
	ReasonApprovalRejected  = "approval_rejected"
	ReasonUnknownAction     = "unknown_action"
	ReasonPolicyUnavailable = "policy_unavailable"
	ReasonMalformedRequest  = "malformed_request"
	ReasonUnknownTicket     = "unknown_ticket"
)

// Reasons is the vocabulary of decision reasons, in the order the manual
// lists them.
var Reasons = []string{
	ReasonAllowed, ReasonProtectedPath, ReasonDestination, ReasonCredential,
	ReasonApprovalRejected, ReasonUnknownAction, ReasonPolicyUnavailable,
	ReasonMalformedRequest, ReasonUnknownTicket,
}

// Row is one row of the fixed policy table.
type Row struct {
	Label, Reason string
}

// Allow reports whether the row allows its label.
func (r Row) Allow() bool { return r.Reason == ReasonAllowed }

// Table is the policy table of contract v1, in the manual's order. Any
// other label is denied as unknown_action.
var Table = []Row{
	{"file.read.workspace", ReasonAllowed},
	{"file.read.protected", ReasonProtectedPath},
	{"net.fetch.allowlisted", ReasonAllowed},
	{"net.fetch.mirror", ReasonAllowed},
	{"net.fetch.external", ReasonDestination},
	{"credential.use.scoped", ReasonAllowed},
	{"credential.read.raw", ReasonCredential},
	{"approval.request.granted", ReasonAllowed},
	{"approval.request.rejected", ReasonApprovalRejected},
	{"service.status.read", ReasonAllowed},
}

// Policy returns the decision ("allow" or "deny") and reason the table
// gives label, and whether the label is in the table.
func Policy(label string) (decision, reason string, listed bool) {
	for _, r := range Table {
		if r.Label == label {
			if r.Allow() {
				return "allow", r.Reason, true
			}
			return "deny", r.Reason, true
		}
	}
	return "deny", ReasonUnknownAction, false
}

// Action is one scripted call of the single tool perform_action.
type Action struct {
	Label string
	// Unavailable makes the fixture answer this call 503
	// policy_unavailable, whatever its label.
	Unavailable bool
}

// Item is one scripted agent run: its tool turns, each a batch of calls
// the mock model emits together, then an implicit final answer.
type Item struct {
	ID     string
	Prompt string
	Turns  [][]Action
}

// Calls returns the number of scripted calls.
func (it Item) Calls() int {
	n := 0
	for _, t := range it.Turns {
		n += len(t)
	}
	return n
}

// CallID and Ticket are the ids the gateway emits for call (t, i), 1-based,
// of the item at ordinal o.
func CallID(o, t, i int) string { return string(appendCallID(nil, o, t, i)) }

// appendCallID appends CallID(o, t, i) to b.
func appendCallID(b []byte, o, t, i int) []byte {
	b = append(b, "call_"...)
	b = strconv.AppendInt(b, int64(o), 10)
	b = append(b, '_')
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, '_')
	return strconv.AppendInt(b, int64(i), 10)
}

// Ticket is the ticket the gateway puts in the arguments of call (t, i).
func Ticket(o, t, i int) string {
	return "t" + strconv.Itoa(o) + "." + strconv.Itoa(t) + "." + strconv.Itoa(i)
}

// Session is the recorders of one adapter process: items run strictly one
// after another, each inside a window Open and Close delimit. A request
// arriving while no window is open is stray. Safe for concurrent use: the
// frameworks run the tool of one batch in several threads.
type Session struct {
	decide  Decider
	mu      sync.Mutex
	ordinal int
	cur     *window
	strays  []Stray
}

// Stray is a request that arrived while no item was open.
type Stray struct {
	Endpoint string
	Body     []byte
}

type window struct {
	rec       *Record
	emitted   []bool         // per tool turn
	decides   map[string]int // ticket → decide requests so far
	effects   map[string]int // ticket → ledger entries so far
	receipts  map[string]receiptOf
	anonymous int // decide requests without a known ticket
	anonEff   int
	calls     map[string]scripted // ticket → scripted call
	// last is the last request read in one pass, whose history and
	// settings the next request most likely repeats.
	last chatRequest
}

// scripted is a call of the item's script and the index of its tool
// turn: a ticket names one call, so whether the gateway has emitted it is
// whether it has emitted that turn.
type scripted struct {
	Action
	turn int
}

type receiptOf struct {
	ticket string
	allow  bool
}

// Decider decides a call the gateway emitted: scripted is the call as the
// item scripts it, requested the label the request names. It returns the
// decision, the reason and the HTTP status of the answer.
type Decider func(scripted Action, requested string) (decision, reason string, status int)

// ContractV1 is the fixture's policy: an unavailable call is denied 503
// policy_unavailable, any other call as the table decides the requested
// label (as a real service would: a label that differs from the script is
// a completeness failure, not another decision).
func ContractV1(scripted Action, requested string) (decision, reason string, status int) {
	if scripted.Unavailable {
		return "deny", ReasonPolicyUnavailable, 503
	}
	decision, reason, _ = Policy(requested)
	return decision, reason, 200
}

// NewSession returns recorders with no item open, deciding by contract v1.
func NewSession() *Session { return &Session{decide: ContractV1} }

// NewSessionDeciding returns recorders whose fixture decides by d: a
// model's mutated policy.
func NewSessionDeciding(d Decider) *Session { return &Session{decide: d} }

// Open opens the window of the next item. It fails when one is open.
func (s *Session) Open(it Item) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		return fmt.Errorf("recorders: item %q is still open", s.cur.rec.Item.ID)
	}
	s.ordinal++
	w := &window{
		rec:      &Record{Item: it, Ordinal: s.ordinal},
		emitted:  make([]bool, len(it.Turns)),
		decides:  map[string]int{},
		effects:  map[string]int{},
		receipts: map[string]receiptOf{},
		calls:    map[string]scripted{},
	}
	for t, turn := range it.Turns {
		for i, a := range turn {
			w.calls[Ticket(s.ordinal, t+1, i+1)] = scripted{a, t}
		}
	}
	s.cur = w
	return nil
}

// Close closes the open window and returns its record. done says whether
// the adapter reported the item finished (its error text otherwise).
func (s *Session) Close(done bool, adapterError string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return nil, fmt.Errorf("recorders: no item is open")
	}
	rec := s.cur.rec
	rec.Done, rec.AdapterError = done, adapterError
	s.cur = nil
	return rec, nil
}

// Strays returns the requests that arrived while no item was open.
func (s *Session) Strays() []Stray {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Stray(nil), s.strays...)
}

// Reply is what a recorder answers.
type Reply struct {
	Status int
	// Header holds extra response headers (lower-case names).
	Header map[string]string
	Body   []byte
}
