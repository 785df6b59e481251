package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/schema"
)

// suite writes a generated suite of n cases (1,000 per file) into a
// temporary folder and returns the folder and the files' bytes.
func suite(b *testing.B, n int) (string, [][]byte) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "desks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	var files [][]byte
	for _, f := range gen.Suite(n, 1000) {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, f.Data)
	}
	return dir, files
}

// BenchmarkEndToEnd runs 'deskcheck verify' in process: read, validate,
// lint, run, compare, and write all four report files.
func BenchmarkEndToEnd(b *testing.B) {
	tuneGC() // as the command does
	for _, size := range []struct {
		name string
		n    int
	}{{"boundary", 0}, {"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(size.name, func(b *testing.B) {
			args := []string{"verify", "-out", filepath.Join(b.TempDir(), "out")}
			if size.n > 0 {
				dir, _ := suite(b, size.n)
				args = append(args, dir)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if code := run(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkSchemaFloor validates the same files with gojsonschema alone,
// one after the other, reading them from disk: the floor the end-to-end
// figures are compared with.
func BenchmarkSchemaFloor(b *testing.B) {
	tuneGC() // the same collector settings as the end-to-end runs
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		b.Run(size.name, func(b *testing.B) {
			dir, _ := suite(b, size.n)
			paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			s, err := schema.Compile(schema.CaseSchema)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, p := range paths {
					data, err := os.ReadFile(p)
					if err != nil {
						b.Fatal(err)
					}
					if problems, err := s.ValidateWithLoader(data); err != nil || len(problems) > 0 {
						b.Fatal(err, problems)
					}
				}
			}
		})
	}
}
