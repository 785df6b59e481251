package gatewaycheck

// The given block of a case is decoded once, when the case is loaded, by
// readGivenFast when it can: a single pass over the text. It is strict
// and partial: it accepts only well-formed JSON in the shape the case
// schema describes and answers ok=false for anything else (invalid text,
// a key written with an escape, a repeated key, nesting deeper than
// jsontext.MaxDepth), and decodeGiven then takes decodeGivenPlain's path,
// which reads any block as the host's json.loads does. Both read strings
// alike, so a block gets the same value whichever path it takes. Everything
// else a case is read for (its script, the action of each request, what a
// step copies) is read once per case from the decoded block, through the
// readers of rawjson.go, which read as the host does too.
