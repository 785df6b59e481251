package verifier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// seedFiles are the case files the fuzzers start from.
func seedFiles(f *testing.F) [][]byte {
	var out [][]byte
	for _, pattern := range []string{"../cases/*.json", "testdata/*.json", "testdata/invalid/*.json", "testdata/hostile/*.json"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			// The 64 KiB limit fixtures only slow mutation down; their
			// limits are tested directly.
			if len(data) <= 32<<10 {
				out = append(out, data)
			}
		}
	}
	return out
}

// FuzzLoad feeds arbitrary bytes to Load and Lint: they must never panic,
// and must either return a desk without errors or no desk and an error
// located in the file.
func FuzzLoad(f *testing.F) {
	for _, data := range seedFiles(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		desk, ds := Load(testReg, "fuzz.json", data, Limits{})
		if (desk == nil) != ds.HasErrors() {
			t.Fatalf("desk %v with diagnostics %v", desk != nil, ds)
		}
		for _, d := range ds {
			if d.Line < 1 || d.Col < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
		if desk != nil {
			Lint([]*Desk{desk}, Limits{})
		}
	})
}

var fuzzScenarios = []string{"wrapper", "fallback", "classify-error"}

// FuzzVerify puts fuzzed given and expected blocks into a valid desk and
// runs it: a case that loads must run (never errored) and never panic.
func FuzzVerify(f *testing.F) {
	for _, data := range seedFiles(f) {
		desk, ds := Load(testReg, "seed.json", data, Limits{})
		if ds.HasErrors() {
			continue
		}
		for _, c := range desk.Cases {
			for i, s := range fuzzScenarios {
				if s == c.Scenario {
					f.Add(uint8(i), c.Given.Raw, c.ExpectedRaw)
				}
			}
		}
	}
	limits := Limits{Scenario: map[string]int{"wrapper.repeat": 20, "wrapper.choices": 50}}
	f.Fuzz(func(t *testing.T, scenario uint8, given, expected string) {
		name := fuzzScenarios[int(scenario)%len(fuzzScenarios)]
		doc := fmt.Sprintf(`{"schemaVersion":1,"id":"fuzz","title":"t","label":"DO NOT EXECUTE","cases":[{"id":"a","title":"t","scenario":%q,"given":%s,"expected":%s}]}`, name, given, expected)
		desk, _ := Load(testReg, "fuzz.json", []byte(doc), limits)
		if desk == nil || Lint([]*Desk{desk}, limits).HasErrors() {
			return
		}
		for _, r := range Run(context.Background(), desk.Cases, nil) {
			if r.Status == Errored {
				t.Fatalf("a valid case could not run: %s\n%s", r.Err, doc)
			}
			if (r.Status == Fail) != (len(r.Mismatches) > 0) {
				t.Fatalf("status %s with mismatches %v", r.Status, r.Mismatches)
			}
		}
	})
}
