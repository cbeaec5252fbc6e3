package trialbench

import "testing"

func TestReportPerTrial(t *testing.T) {
	trials := 0
	r := testing.Benchmark(func(b *testing.B) {
		ReportPerTrial(b, func() error {
			trials += b.N
			return nil
		})
	})
	if trials == 0 {
		t.Fatal("run was not called")
	}
	want := []string{"ms/trial"}
	if _, ok := cpuTime(); ok {
		want = append(want, "cpu-ms/trial")
	}
	for _, unit := range want {
		if _, ok := r.Extra[unit]; !ok {
			t.Errorf("no %s metric: %v", unit, r.Extra)
		}
	}
}
