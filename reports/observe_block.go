package reports

import (
	"encoding/json"

	"github.com/deskcheck/deskcheck/verifier"
)

// ExpectedBlock is the expected block Observe prints for c: its keys in
// order, each value as compact JSON, and the lines (~ + -) that say how
// it differs from the authored block; no line when it holds and asserts
// every key suggested.
func ExpectedBlock(c Case) (keys []string, values []json.RawMessage, diff []string) {
	block, diff := observeBlock(c)
	for _, k := range block {
		keys = append(keys, k.key)
		values = append(values, k.value)
	}
	return keys, values, diff
}

// ExpectedBlockOf is ExpectedBlock of one run's result, as Build would
// make its case.
func ExpectedBlockOf(res *verifier.Result) (keys []string, values []json.RawMessage, diff []string) {
	return ExpectedBlock(newCase(res, false))
}
