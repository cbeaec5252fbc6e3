package profiletest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestdataFile is one file of a package's testdata and its contents.
type TestdataFile struct {
	Path string
	Data []byte
}

// ReadTestdata reads the files of testdata/dir (relative to the test's package) whose names
// match pattern, in name order.
func ReadTestdata(tb testing.TB, dir, pattern string) []TestdataFile {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, pattern))
	if err != nil {
		tb.Fatal(err)
	}
	files := make([]TestdataFile, len(paths))
	for i, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		files[i] = TestdataFile{path, data}
	}
	return files
}

// BenchRead runs the sub-benchmark name, which reads the file at path with read until b.Loop
// ends; read returns how many records (unit: "records", "rows") it read, and want is how many
// it must. It reports the file's bytes per second and units per second.
func BenchRead(b *testing.B, name, path string, want int, unit string, read func() (int, error)) {
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
