package gcprof

import (
	"os"
	"testing"
)

// benchRead runs the sub-benchmark name, which reads the file at path with read until b.Loop
// ends; read returns how many records (unit: "records", "rows") it read, and want is how many
// it must. It reports the file's bytes per second and units per second.
func benchRead(b *testing.B, name, path string, want int, unit string, read func() (int, error)) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(name, func(b *testing.B) {
		b.SetBytes(st.Size())
		b.ReportAllocs()
		for b.Loop() {
			n, err := read()
			if err != nil {
				b.Fatal(err)
			}
			if n != want {
				b.Fatalf("read %d %s, want %d", n, unit, want)
			}
		}
		b.ReportMetric(float64(want)*float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
	})
}
