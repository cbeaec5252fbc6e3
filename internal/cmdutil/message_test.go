package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUserMessageDropsPackagePrefixes: the one line a user reads names no package, whichever
// package the error came from: the profile packages', diagnose's and tunable's errors read as
// they did when those packages said "lifetimes: ", "report: " and "search: ".
func TestUserMessageDropsPackagePrefixes(t *testing.T) {
	for _, c := range []struct{ err, old, want string }{
		{`spec my.yaml:14: phases[0].mix: shares sum to 0.97, want 1`,
			`lifetimes: spec my.yaml:14: phases[0].mix: shares sum to 0.97, want 1`,
			`spec my.yaml:14: phases[0].mix: shares sum to 0.97, want 1`},
		{`spec: load spec: big.yaml: larger than the 16 MiB a spec may have`,
			`lifetimes: load spec: big.yaml: larger than the 16 MiB a spec may have`,
			`big.yaml: larger than the 16 MiB a spec may have`},
		{`spec: generate w: resolution 2 is not a number of records per real object in [0.001, 1]`,
			`lifetimes: generate w: resolution 2 is not a number of records per real object in [0.001, 1]`,
			`generate w: resolution 2 is not a number of records per real object in [0.001, 1]`},
		{`source: "foo": not a bundled workload (known: a, b) nor a file`,
			`lifetimes: "foo": not a bundled workload (known: a, b) nor a file`,
			`"foo": not a bundled workload (known: a, b) nor a file`},
		{`filip: data.csv: no valid rows (1 bad rows skipped, the first: filip: data.csv:2: row has 2 fields, want 8)`,
			`lifetimes: data.csv: no valid rows (1 bad rows skipped, the first: lifetimes: data.csv:2: row has 2 fields, want 8)`,
			`data.csv: no valid rows (1 bad rows skipped, the first: data.csv:2: row has 2 fields, want 8)`},
		{`filip: profile: invalid profile: size column has 0 entries, birth has 2`,
			`lifetimes: lifetimes: invalid profile: size column has 0 entries, birth has 2`,
			`invalid profile: size column has 0 entries, birth has 2`},
		{`gcprof: corrupt binary profile: x.gcprof: truncated`,
			`lifetimes: corrupt binary profile: x.gcprof: truncated`,
			`corrupt binary profile: x.gcprof: truncated`},
		{`gcprof: load profile: x.gcprof: truncated`,
			`lifetimes: load profile: x.gcprof: truncated`,
			`x.gcprof: truncated`},
		{`diagnose: workload w: heapsim: out of memory`,
			`report: workload w: heapsim: out of memory`,
			`workload w: out of memory`},
		{`config: tunable: space.eden: low 8 is not below high 4 (bounds reversed or empty)`,
			`config: search: space.eden: low 8 is not below high 4 (bounds reversed or empty)`,
			`config: space.eden: low 8 is not below high 4 (bounds reversed or empty)`},
	} {
		assert.Equal(t, c.want, UserMessage(errors.New(c.err)), c.err)
		assert.Equal(t, c.want, UserMessage(errors.New(c.old)), c.old)
	}
}

// TestUserMessageNamesTheFile: a file's error names the file once and says what is wrong in a
// few words; a multi-line message is one line.
func TestUserMessageNamesTheFile(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing.csv"))
	path := err.(*fs.PathError).Path
	assert.Equal(t, path+": no such file", UserMessage(fmt.Errorf("filip: %w", err)))
	assert.Equal(t, "config "+path+": no such file", UserMessage(fmt.Errorf("config %s: %w", path, err)))
	assert.Equal(t, "a b c", UserMessage(errors.New("gctune: a\n  b\n\nc\n")))
	assert.Equal(t, "a b", OneLine(errors.New("gctune: a\nb")))
}
