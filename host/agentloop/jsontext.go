package agentloop

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The runner reads a request's arguments here without encoding/json's
// reflection, which cost more than the rest of a step: the members of the
// arguments object and its string value. The readers are strict and
// partial: they accept only well-formed JSON and answer ok=false for
// anything else (invalid text, nesting deeper than jsontext.MaxDepth). Callers
// then take encoding/json's own path, so a value or a refusal is always
// the one encoding/json gives.

// member and members are the shared object reader's.
type (
	member  = jsontext.Member
	members = jsontext.Members
)
