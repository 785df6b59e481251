package reports

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/deskcheck/deskcheck/host/all"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/verifier"
)

// BenchmarkReport renders each format for a generated 1,000-case suite.
func BenchmarkReport(b *testing.B) {
	suite, _, err := verifier.Verify(context.Background(), []verifier.Input{{Path: "bench.json", Data: gen.Desk(0, 0, 1000)}}, verifier.Options{Registry: all.Registry()})
	if err != nil {
		b.Fatal(err)
	}
	r := Build(suite, time.Unix(0, 0))
	for _, f := range Formats(Text{}) {
		b.Run(f.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := f.Reporter.Write(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
