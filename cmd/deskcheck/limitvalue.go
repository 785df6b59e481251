package main

import (
	"strconv"

	"github.com/deskcheck/deskcheck/verifier"
)

// intLimit is a flag holding one int limit (-max-work N).
type intLimit struct {
	p    *int
	name string
}

func (f intLimit) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.Itoa(*f.p)
}

func (f intLimit) Set(s string) error {
	n, err := verifier.LimitValue(f.name, s, maxInt)
	if err != nil {
		return err
	}
	*f.p = int(n)
	return nil
}

// int64Limit is a flag holding one int64 limit (-max-file-size BYTES).
type int64Limit struct {
	p    *int64
	name string
}

func (f int64Limit) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.FormatInt(*f.p, 10)
}

func (f int64Limit) Set(s string) error {
	n, err := verifier.LimitValue(f.name, s, 1<<63-1)
	if err != nil {
		return err
	}
	*f.p = n
	return nil
}

const maxInt = int64(^uint(0) >> 1)
