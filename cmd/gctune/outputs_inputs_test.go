package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 22, "Outputs that destroy inputs": an output that is one of the command's inputs
// (same device and inode) is refused before any work, one line, exit 2, and the input is left
// as it was.
func TestOutputThatIsAnInputRefused(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	optimizeTiny(t, db, "rs", 3)
	ev := filepath.Join(dir, "ev.csv")
	csv, err := os.ReadFile("testdata/run.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(ev, csv, 0o644))
	meta, err := os.ReadFile("testdata/run.json")
	require.NoError(t, err)
	evMeta := filepath.Join(dir, "ev.json")
	require.NoError(t, os.WriteFile(evMeta, meta, 0o644))
	run := filepath.Join(dir, "run.json")
	require.NoError(t, os.WriteFile(run, []byte(tinyRun), 0o644))
	cfg := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("simulate:\n  eden: 8MiB\n"), 0o644))
	link := filepath.Join(dir, "link.html")
	require.NoError(t, os.Symlink("r.db", link))
	for _, c := range []struct {
		args        []string
		flag, input string
	}{
		{[]string{"report", "rs", "--storage", db, "-o", db}, "output", db},
		{[]string{"report", "rs", "--storage", "sqlite://" + db, "-o", link}, "output", db},
		{[]string{"export", "rs", "--storage", db, "-o", db}, "output", db},
		{[]string{"simulate", ev, "--events", ev}, "events", ev},
		{[]string{"simulate", "testdata/tiny.yaml", "--config", cfg, "--events", cfg}, "events", cfg},
		{[]string{"lifetimes", ev, "--plot", evMeta}, "plot", evMeta},
		{[]string{"sample", ev, "--rate", "1/1", "-o", ev, "--force"}, "output", ev},
		{[]string{"calibrate", "testdata/tiny.yaml", "--measured", run, "-o", run}, "output", run},
	} {
		before := map[string][]byte{}
		for _, f := range []string{db, ev, evMeta, run, cfg} {
			before[f], err = os.ReadFile(f)
			require.NoError(t, err)
		}
		_, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, c.args)
		out := c.args[len(c.args)-1]
		if c.args[len(c.args)-1] == "--force" {
			out = c.args[len(c.args)-2]
		}
		assert.Equal(t, "gctune: --"+c.flag+": cannot write "+out+": is the input "+c.input+": not writing over it\n", errOut, c.args)
		for f, b := range before {
			after, err := os.ReadFile(f)
			require.NoError(t, err)
			assert.Equal(t, b, after, "%v changed %s", c.args, f)
		}
	}
	// Different files are still written.
	gctuneOK(t, "simulate", ev, "--events", filepath.Join(dir, "events.csv"))
}

// Issue 22, "Terminal escapes": names from input print escaped, never as the control
// characters that set a terminal's title and colours.
func TestNamesPrintEscaped(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "evil.yaml")
	require.NoError(t, os.WriteFile(spec, []byte(`name: "evil\e]0;title\a"
description: class names with terminal escapes
allocate: 1MB
classes:
  - name: "\e]0;pwned\a\e[31mRed"
    size: 32
  - name: Keep
    size: 64
phases:
  - name: run
    allocate: 100%
    mix:
      - {class: "\e]0;pwned\a\e[31mRed", share: 0.8, lifetime: immediate}
      - {class: Keep, share: 0.2, lifetime: until-end}
`), 0o644))
	csv := filepath.Join(dir, "evil.csv")
	header, _, _ := strings.Cut(mustRead(t, "testdata/run.csv"), "\n")
	require.NoError(t, os.WriteFile(csv, []byte(header+"\n"+
		"7340034160,16,7340033160,\x1b]0;pwned\x07\xff,0,0,X>>#y,23\n"+
		"7340035000,40,7340033400,Big,0,0,X>>#y,5\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "evil.json"), []byte(mustRead(t, "testdata/run.json")), 0o644))
	for _, args := range [][]string{
		{"lifetimes", spec, "--top", "100"},
		{"lifetimes", csv, "--top", "100", "--clock", "bytes", "--no-rebuild"},
		{"simulate", spec},
		{"sample", spec, "--rate", "1/3", "-o", filepath.Join(dir, "s.csv"), "--force"},
	} {
		out, errOut := gctuneOK(t, args...)
		for _, s := range []string{out, errOut} {
			assert.NotContains(t, s, "\x1b", args)
			assert.NotContains(t, s, "\x07", args)
			assert.NotContains(t, s, "\xff", args)
		}
		if args[0] == "lifetimes" {
			assert.Contains(t, out, `\x1b]0;pwned\a`, args)
		}
	}
}

// An error that quotes its input is escaped too.
func TestErrorLinePrintsEscaped(t *testing.T) {
	_, errOut, code := gctune(t, "simulate", "no\x1b]0;pwned\x07such.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.NotContains(t, errOut, "\x1b")
	assert.Contains(t, errOut, `no\x1b]0;pwned\asuch.yaml`)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// TestDatabaseFilesAreNotOutputs: the files SQLite keeps beside a study database (-wal, -shm,
// -journal) are refused as outputs of the commands that read the database, existing or not,
// one line, exit 2, the database and its files untouched (issue 35: report -o STUDY.db-wal and
// export -o STUDY.db-journal exited 0 and wrote over them).
func TestDatabaseFilesAreNotOutputs(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	optimizeTiny(t, db, "rs", 3)
	wal := db + "-wal"
	require.NoError(t, os.WriteFile(wal, nil, 0o644)) // as a live database's would be
	for _, c := range [][]string{
		{"report", "rs", "--storage", db, "-o", db + "-wal"},
		{"export", "rs", "--storage", db, "-o", db + "-journal"},
		{"export", "rs", "--storage", "sqlite://" + db, "--format", "json", "-o", db + "-shm"},
	} {
		before, err := os.ReadFile(db)
		require.NoError(t, err)
		_, errOut, code := gctune(t, c...)
		assert.Equal(t, cmdutil.ExitUsage, code, c)
		out := c[len(c)-1]
		assert.Regexp(t, `^gctune: --output: cannot write `+regexp.QuoteMeta(out)+`: is the study database .*'s (wal|shm|journal) file: not writing over it\n$`, errOut, c)
		after, err := os.ReadFile(db)
		require.NoError(t, err)
		assert.Equal(t, before, after, c)
		for _, s := range []string{"-journal", "-shm"} {
			assert.NoFileExists(t, db+s, c)
		}
		w, err := os.ReadFile(wal)
		require.NoError(t, err)
		assert.Empty(t, w, c)
	}
}
