package gatewaycheck

// The given block of a case is decoded once, when the case is loaded, by
// readGivenFast when it can: the one reader here that works without
// encoding/json's reflection. It is strict and partial: it accepts only
// well-formed JSON in the shape the case schema describes and answers
// ok=false for anything else (invalid text, a key spelled differently, a
// repeated key, nesting deeper than jsontext.MaxDepth), and decodeGiven
// then takes encoding/json's path, so odd input gets the same value or
// error as ever. Everything else a case is read for (its script, the
// action of each request, what a step copies) is read once per case from
// the decoded block, through encoding/json.
