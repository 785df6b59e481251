package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/deskcheck/deskcheck/reports/folder"
)

// catchSignals makes each signal that ends a run (SIGINT, SIGTERM,
// SIGHUP) first remove the temporary files and folders of the writes in
// progress — the report folder being rendered, the desk observe -w is
// rewriting — and then end the process as the signal would have. A
// signal the process was started to ignore stays ignored.
func catchSignals() {
	var caught []os.Signal
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			caught = append(caught, s)
		}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, caught...)
	go func() {
		s := <-ch
		folder.Abandon()
		signal.Reset(s)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(s)
		}
		code := exitFail
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		os.Exit(code)
	}()
}
