package filip

import (
	"os"
	"path/filepath"
	"testing"
)

// testdataFile is one file of testdata and its contents.
type testdataFile struct {
	path string
	data []byte
}

// readTestdata reads the files of testdata/dir whose names match pattern, in name order.
func readTestdata(tb testing.TB, dir, pattern string) []testdataFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, pattern))
	if err != nil {
		tb.Fatal(err)
	}
	files := make([]testdataFile, len(paths))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		files[i] = testdataFile{path, data}
	}
	return files
}

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

// withRate gives opts sampling rate 1 unless it has one: what tests of exports without
// metadata say of them (the reader refuses to guess it).
func withRate(opts Options) Options {
	if opts.SamplingRate == 0 {
		opts.SamplingRate = 1
	}
	return opts
}
