package spec

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
