package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskcheck/deskcheck/host/all"
	"github.com/deskcheck/deskcheck/internal/gen"
	"github.com/deskcheck/deskcheck/internal/parallel"
	"github.com/deskcheck/deskcheck/verifier"
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
// reading them from disk and decoding them with gojsonschema's own loader:
// the floor the end-to-end figures are compared with. "serial" validates
// one file after the other, as a program using gojsonschema alone does;
// "parallel" spreads the files over all processors, as deskcheck does.
func BenchmarkSchemaFloor(b *testing.B) {
	s, err := verifier.CompiledCaseSchema(all.Registry())
	if err != nil {
		b.Fatal(err)
	}
	validate := func(b *testing.B, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Error(err)
			return
		}
		if problems, err := s.ValidateWithLoader(data); err != nil || len(problems) > 0 {
			b.Error(err, problems)
		}
	}
	for _, size := range []struct {
		name string
		n    int
	}{{"1k", 1000}, {"10k", 10000}, {"100k", 100000}} {
		var paths []string // generated on first use, kept for both modes
		parent := b
		for _, mode := range []string{"serial", "parallel"} {
			b.Run(size.name+"/"+mode, func(b *testing.B) {
				if paths == nil {
					dir, _ := suite(parent, size.n)
					paths, _ = filepath.Glob(filepath.Join(dir, "*.json"))
				}
				if len(paths) != size.n/1000 {
					b.Fatalf("%d files, want %d", len(paths), size.n/1000)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if mode == "serial" {
						for _, p := range paths {
							validate(b, p)
						}
					} else {
						parallel.For(len(paths), func(j int) { validate(b, paths[j]) })
					}
				}
			})
		}
	}
}
