package main

import (
	"errors"
	"flag"
	"strconv"
)

// defaultReportBytes bounds the four report files of a run together. At
// the default limits the largest reports measured are 345 MB (the
// wrapper-rpc worst case of docs/hostile-input.md); a run of more is
// refused its folder rather than allowed to fill a disk.
const defaultReportBytes = 1 << 30

// reportBytes is the value of -max-report-bytes: a whole number of bytes,
// at least 1.
type reportBytes int64

func (b *reportBytes) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *reportBytes) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return errors.New("a whole number of bytes, at least 1")
	}
	*b = reportBytes(n)
	return nil
}

// reportBytesFlag is the -max-report-bytes flag of a command that writes
// a report folder.
func reportBytesFlag(fs *flag.FlagSet) *int64 {
	b := reportBytes(defaultReportBytes)
	fs.Var(&b, "max-report-bytes", "most `BYTES` the four report files may take together; past it the folder is not written")
	return (*int64)(&b)
}
