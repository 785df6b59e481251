package verifier

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/deskcheck/deskcheck/internal/gen"
)

func TestScanAgreesWithReferenceWalk(t *testing.T) {
	paths, err := filepath.Glob("testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	own, err := filepath.Glob("../host/*/*check/testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(append(paths, own...), "../cases/boundary-desk.json")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		scanAgrees(t, data)
	}
	scanAgrees(t, gen.Desk(0, 0, 200))
	for _, doc := range []string{
		`{"a":1,"a":2,"b":{"c":[1,{"c":1,"c":2}],"d":"e"}}`,
		`{"a":[[[[[1]]]]],"b":"a very long string indeed"}`,
		`{"k\u0061":1,"ka":2, "x" : [ ] , "y" : { } }`,
		`{"n":1e400,"m":-1e-400,"o":12345678901234567890123,"p":true,"q":null,"r":false}`,
		`{"averyveryverylongkey":1,"b":2}`,
		`{"a":{"b":{"c":{"d":{"e":1}}}},"f":[{"g":[{"h":1}]}]}`,
	} {
		scanAgrees(t, []byte(doc))
	}
}

func FuzzScanAgrees(f *testing.F) {
	// The case files the verifier's fuzzers start from; the 64 KiB limit
	// fixtures only slow mutation down.
	for _, pattern := range []string{"../cases/*.json", "testdata/*.json", "testdata/*/*.json"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) <= 32<<10 {
				f.Add(data)
			}
		}
	}
	// Keys that differ only in a lone surrogate, and one that repeats.
	f.Add([]byte(`{"a\ud800":1,"a\udc00":2,"b\udc42\u0041":3,"b\udc42\u0041":4}`))
	f.Fuzz(func(t *testing.T, data []byte) { scanAgrees(t, data) })
}
