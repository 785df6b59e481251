package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskcheck/deskcheck/internal/gen"
)

// suiteDir writes a generated suite of n cases (1,000 per file) once per
// benchmark and returns its folder.
func suiteDir(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "desks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for _, f := range gen.Suite(n, 1000) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func benchVerify(b *testing.B, n int) {
	dir := suiteDir(b, n)
	out := filepath.Join(b.TempDir(), "out")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"verify", "-out", out, dir}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(n), "cases")
}

func BenchmarkVerify1k(b *testing.B)   { benchVerify(b, 1000) }
func BenchmarkVerify10k(b *testing.B)  { benchVerify(b, 10000) }
func BenchmarkVerify100k(b *testing.B) { benchVerify(b, 100000) }
