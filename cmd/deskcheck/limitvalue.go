package main

import (
	"errors"
	"fmt"
	"strconv"
)

// limitValue reads the value of a limit flag: a positive whole number
// written in digits. One too large for the limit's type is named as such,
// with the largest it may be.
func limitValue(name, s string, largest int64) (int64, error) {
	digits := s != ""
	for i := 0; i < len(s); i++ {
		digits = digits && '0' <= s[i] && s[i] <= '9'
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case digits && (errors.Is(err, strconv.ErrRange) || err == nil && n > largest):
		return 0, fmt.Errorf("%s is too large: %s is over the largest value, %d", name, s, largest)
	case !digits || err != nil || n <= 0:
		return 0, fmt.Errorf("%s must be a positive whole number, not %q", name, s)
	}
	return n, nil
}

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
	n, err := limitValue(f.name, s, maxInt)
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
	n, err := limitValue(f.name, s, 1<<63-1)
	if err != nil {
		return err
	}
	*f.p = n
	return nil
}

const maxInt = int64(^uint(0) >> 1)
