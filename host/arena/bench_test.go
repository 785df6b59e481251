package arena

import "testing"

// BenchmarkArenaRun plays the bundled desk's sixteen scripts on every
// adapter, once correct and once under each fault: the runs verify and
// faults make of an arena desk.
func BenchmarkArenaRun(b *testing.B) {
	items := make([]Config, 0, len(desk)*len(Adapters)*(len(FaultList)+1))
	for n, s := range desk {
		it := item(n+1, s)
		for _, a := range Adapters {
			items = append(items, Config{Item: it, Adapter: a})
			for _, f := range FaultList {
				var fs Faults
				items = append(items, Config{Item: it, Adapter: a, Faults: fs.With(f.Fault)})
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, cfg := range items {
			Run(cfg)
		}
	}
}
