package gatewaycheck

// The readers of given blocks and expected keys (readGivenFast,
// readDecisions, requestActionFast and the like) and the decoding of the
// results the model snapshots work without encoding/json's reflection,
// which cost more than running the gateway itself. Each is strict and
// partial: it accepts only well-formed JSON in the shapes it knows and
// answers ok=false for anything else (invalid text, a key spelled
// differently, a repeated key, a string with escapes where it wants the
// bytes, nesting deeper than jsontext.MaxDepth). Its callers then run the
// encoding/json code they used before, so odd input gets the same value or
// error as ever.
