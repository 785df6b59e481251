// Command gendesks writes a generated suite of desks into a folder, for
// benchmarks and scale tests: gendesks -cases 100000 -per-file 1000 -out DIR;
// gendesks -worst NAME -out DIR writes one family's worst case at the
// default limits instead (gen.WorstCases: every family's Worst desks).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/deskcheck/deskcheck/internal/gen"
)

func main() {
	total := flag.Int("cases", 1000, "cases in all")
	per := flag.Int("per-file", 1000, "cases per file")
	out := flag.String("out", "", "folder to write the desks into (created)")
	worst := flag.String("worst", "", "write the worst-case desk of this name instead (one of a family's Worst desks)")
	flag.Parse()
	if *out == "" || *total < 1 || *per < 1 {
		fmt.Fprintln(os.Stderr, "usage: gendesks -cases N -per-file N -out DIR")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if *worst != "" {
		data, err := gen.Worst(*worst)
		if err == nil {
			err = os.WriteFile(filepath.Join(*out, *worst+".json"), data, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return
	}
	for _, f := range gen.Suite(*total, *per) {
		if err := os.WriteFile(filepath.Join(*out, f.Name), f.Data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
