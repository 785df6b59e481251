package verifier

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkRunGenerated(b *testing.B) {
	paths, _ := filepath.Glob("/tmp/suite10000/*.json")
	var inputs []Input
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		inputs = append(inputs, Input{Path: p, Data: data})
	}
	desks, _ := LoadAll(inputs, Limits{})
	cases, _ := Select(desks, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Run(context.Background(), cases, 0)
	}
}
