package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/deskcheck/deskcheck/verifier"
)

// stdin is what a path "-" reads; the tests replace it.
var stdin io.Reader = os.Stdin

// stdinName is how diagnostics and reports name standard input.
const stdinName = "<stdin>"

// readStdin reads standard input as one case file of at most limit bytes.
func readStdin(limit int64) (verifier.Input, error) {
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(stdin, limit+1)); err != nil {
		return verifier.Input{}, fmt.Errorf("%s: cannot be read: %v", stdinName, err)
	}
	if int64(buf.Len()) > limit {
		return verifier.Input{}, fmt.Errorf("%s: cannot be read: more than the limit of %d bytes (-max-file-size)", stdinName, limit)
	}
	return verifier.Input{Path: stdinName, Data: buf.Bytes()}, nil
}

// readPaths reads the paths with read (verifier.ReadPaths or ListPaths),
// and "-" as standard input, in the order given. "-" may be named once.
func readPaths(paths []string, limits verifier.Limits, read func([]string, verifier.Limits) ([]verifier.Input, verifier.Diagnostics, error)) ([]verifier.Input, verifier.Diagnostics, error) {
	var inputs []verifier.Input
	var ds verifier.Diagnostics
	seen := false
	start := 0
	flush := func(end int) error {
		if end > start {
			in, d, err := read(paths[start:end], limits)
			inputs, ds = append(inputs, in...), append(ds, d...)
			if err != nil {
				return err
			}
		}
		return nil
	}
	for i, p := range paths {
		if p != "-" {
			continue
		}
		if err := flush(i); err != nil {
			return nil, ds, err
		}
		start = i + 1
		if seen {
			return nil, ds, fmt.Errorf("- (standard input) is named more than once")
		}
		seen = true
		in, err := readStdin(limits.WithDefaults().FileSize)
		if err != nil {
			return nil, ds, err
		}
		inputs = append(inputs, in)
	}
	if err := flush(len(paths)); err != nil {
		return nil, ds, err
	}
	return inputs, ds, nil
}
