package schema

import "testing"

// BenchmarkNewSplit compiles the case schema as every deskcheck process
// does once before it validates the first file.
func BenchmarkNewSplit(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewSplit(CaseSchema, "cases", "scenario"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileWhole compiles the whole case schema alone.
func BenchmarkCompileWhole(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Compile(CaseSchema); err != nil {
			b.Fatal(err)
		}
	}
}
