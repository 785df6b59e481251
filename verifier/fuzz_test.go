package verifier

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seedFiles are the case files the fuzzers start from.
func seedFiles(f *testing.F) [][]byte {
	var out [][]byte
	for _, pattern := range []string{"../cases/*.json", "testdata/*.json", "testdata/invalid/*.json", "testdata/hostile/*.json", "testdata/authoring/*.json"} {
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
	return append(out, hostileSeeds()...)
}

// hostileSeeds are small instances of the classes of the second hostile
// input pass, for the fuzzers to start from.
func hostileSeeds() [][]byte {
	desk := func(cases string) []byte {
		return []byte(`{"schemaVersion":1,"id":"s","title":"t","label":"DO NOT EXECUTE","sources":{"w":"x"},"cases":[` + cases + `]}`)
	}
	var dups, nums strings.Builder
	for i := 0; i < 300; i++ {
		dups.WriteString(`,"a":1`)
		nums.WriteString(`,1e400`)
	}
	return [][]byte{
		[]byte(strings.Repeat("[", 5000)),                         // opening brackets only
		[]byte(strings.Repeat("[", 70) + strings.Repeat("]", 70)), // closed, too deep
		[]byte(strings.Repeat(`{"a":`, 2000)),                     // objects, never closed
		[]byte(`{"a":[` + strings.Repeat(`{"b":`, 80) + `1` + strings.Repeat(`}`, 80) + `]}`),
		[]byte(`{"a":1` + dups.String() + `}`),                      // many duplicate keys
		[]byte(`{"a":[1` + nums.String() + `]}`),                    // many numbers out of range
		[]byte(`{"title":"` + strings.Repeat(`\u0041`, 200) + `"}`), // escapes
		[]byte(`{"t":"\uD800","u":"\uDC00\uD800\uDC00","v":"\u00","w":"\q"}`),
		[]byte(`{"k\u0000ey":1,"k\u0000ey":2}`), // NUL inside a duplicate key
		desk(named(`{"id":"a","title":"t","scenario":"{prompt}","given":{"mo\u0000de":"yolo"},"expected":{"outcome":"return","effects":1}}`)),
		desk(named(`{"id":"a","title":"t","scenario":"{prompt}","given":{"approval":"paranoid","mode":"Write"},"expect":{"outcome":"throw","effects":0}}`)),
		desk(named(`{"id":"a","title":"t","scenario":"{prompt}","given":{"approval":{"tier":"Read"},"mode":"write","ui":false,"repeat":1000},"expected":{"outcome":"throw","effects":0}}`)),
		desk(named(`{"id":"a","title":"Placeholder: x","scenario":"{prompt}","given":{},"expected":{"outcome":"return","effects":1}},{"id":"a","title":"t","scenario":"{classify}","given":{"message":"m"},"expected":{"permissionDenied":false,"effects":0}}`)),
		desk(``),
		[]byte(`{"schemaVersion":1,"id":"new-desk","title":"t","source":{},"cases":[]}`),
		[]byte(named(`{"schemaVersion":1,"id":"r","title":"t","hosts":{"{host}":">=17.2.15 <18.2.3"},"cases":[{"id":"a","title":"t","scenario":"{prompt}","hosts":{"{host}":"*"},"given":{"tool":"0","userPolicies":["deny"]},"expected":{"outcome":"throw","effects":0}}]}`)),
		[]byte(named(`{"schemaVersion":1,"id":"r","title":"t","hosts":{"{host}":"^18","opm":"*"},"cases":[{"id":"a","title":"t","scenario":"{retry}","hosts":{"{requestsHost}":"1.0.0"},"given":{"code":"EACCES","message":"m"},"expected":{"outcome":"throw","effects":0}}]}`)),
	}
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
		if len(ds) > DefaultLimits.Diagnostics+3 { // and a syntax error, the checks skipped and the count of the rest
			t.Fatalf("%d diagnostics for one file, over the cap", len(ds))
		}
		skips := 0
		for i, d := range ds {
			if d.Omitted.more() > 0 {
				if i != len(ds)-1 {
					t.Fatalf("the count of left-out problems is not last: %v", ds)
				}
				continue
			}
			if d.skip {
				skips++
				if i != len(ds)-1 && ds[i+1].Omitted.more() == 0 || skips > 1 || !ds.HasErrors() {
					t.Fatalf("the checks-skipped line is not one, after the errors, before the count: %v", ds)
				}
				continue
			}
			if d.Line < 1 || d.Col < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
			if strings.ContainsAny(d.String(), "\x00\n\r\x1b") {
				t.Fatalf("diagnostic that is not one inert line: %q", d.String())
			}
		}
		if desk != nil {
			Lint([]*Desk{desk}, Limits{})
		}
	})
}

var fuzzScenarios = []string{exPrompt.Name, exRetry.Name, exClassify.Name}

// FuzzVerify puts fuzzed given and expected blocks into a valid desk and
// runs it on every OMP release: a case that loads must run (never
// errored) and never panic.
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
	for _, g := range []string{
		`{"approval":"paranoid","mode":"Write","repeat":3}`,
		`{"approval":{"tier":"Read","policy":" DENY "},"mode":"sometimes","choices":["Approve",null]}`,
		`{"approval":"exec","mode":"always-ask","repeat":20,"choices":["Approve"]}`,
		`{"tool":"t\u0000\u001b[2K","args":{"k\u0000":"\uD800"},"mode":"yolo"}`,
		`{"tool":"length","approval":"read","userPolicies":"\uD800deny","mode":"YOLO"}`,
	} {
		f.Add(uint8(0), g, `{"outcome":"throw","effects":0}`)
	}
	limits := Limits{Scenario: map[string]int{named("{prompt}.repeat"): 20, named("{prompt}.choices"): 50}}
	f.Fuzz(func(t *testing.T, scenario uint8, given, expected string) {
		name := fuzzScenarios[int(scenario)%len(fuzzScenarios)]
		doc := fmt.Sprintf(named(`{"schemaVersion":1,"id":"fuzz","title":"t","label":"DO NOT EXECUTE","hosts":{"{host}":"*"},"cases":[{"id":"a","title":"t","scenario":%q,"given":%s,"expected":%s}]}`), name, given, expected)
		desk, _ := Load(testReg, "fuzz.json", []byte(doc), limits)
		if desk == nil || Lint([]*Desk{desk}, limits).HasErrors() {
			return
		}
		for _, r := range runAll(context.Background(), desk.Cases, nil, nil) {
			if r.Status == Errored {
				t.Fatalf("a valid case could not run: %s\n%s", r.Err, doc)
			}
			if (r.Status == Fail) != (len(r.Mismatches) > 0) {
				t.Fatalf("status %s with mismatches %v", r.Status, r.Mismatches)
			}
		}
	})
}
