package agentloop

import (
	"github.com/deskcheck/deskcheck/internal/jsontext"
)

// The runner reads a request's arguments here without reflection, which
// cost more than the rest of a step: the members of the arguments object
// and its string value, as its json.loads reads them (see
// internal/jsontext: an unpaired surrogate is kept). The readers accept
// only well-formed JSON and answer ok=false for anything else, which the
// runner refuses.

// members is the shared object reader's.
type members = jsontext.Members
