package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/heapsim/eventlog"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/simulate"
)

const gcdemo = "testdata/gcdemo.yaml"

func TestSimulateTable(t *testing.T) {
	out, _ := gctuneOK(t, "simulate", gcdemo, "--headroom", "256MiB")
	for _, want := range []string{"growth headroom (param 25)", "16 MiB", "256 MiB", "scavenges", "full GCs",
		"20 (ratio 0, large 20)", "GC share", "peak footprint", "speedup: "} {
		assert.Contains(t, out, want)
	}
}

func TestSimulateJSONAndSizeSpellings(t *testing.T) {
	var a, b simulate.Report
	gctuneJSON(t, &a, "simulate", gcdemo, "--eden", "64m", "--headroom", "256MiB", "--ratio", "2", "--survivors-proportion", "1")
	gctuneJSON(t, &b, "simulate", gcdemo, "--eden", "67108864", "--headroom", "0.25GiB", "--ratio", "2", "--survivors-proportion", "1.0")
	assert.Equal(t, uint64(64<<20), a.Given.Params.NewSpaceBytes)
	assert.Equal(t, uint64(256<<20), a.Given.Params.GrowthHeadroomBytes)
	assert.Equal(t, a.Given.Stats, b.Given.Stats, "the same parameters spelt differently")
	assert.Equal(t, 20, a.Default.Stats.FullGCsLargeAlloc)
	assert.Less(t, a.Given.Stats.FullGCsLargeAlloc, 20)
	assert.InDelta(t, a.Default.Stats.TotalSeconds/a.Given.Stats.TotalSeconds, a.Speedup, 1e-9)
	assert.GreaterOrEqual(t, a.Given.Proportion, 1.0)
}

func TestSimulateConfigFileAndEvents(t *testing.T) {
	cfg := writeFile(t, "best.yaml", "simulate:\n  eden: 32MiB\n  headroom: 128MiB\n  shrink: 256MiB\n  ratio: 4\n  survivors_proportion: 1\n")
	events := filepath.Join(t.TempDir(), "events.csv")
	var d simulate.Report
	gctuneJSON(t, &d, "--config", cfg, "simulate", gcdemo, "--events", events)
	assert.Equal(t, uint64(32<<20), d.Given.Params.NewSpaceBytes)
	assert.Equal(t, 4.0, d.Given.Params.FullGCRatio)
	f, err := os.Open(events)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, eventlog.Header(), rows[0])
	kinds := map[string]int{}
	for _, r := range rows[1:] {
		kinds[r[0]]++
	}
	assert.Equal(t, d.Given.Stats.Scavenges, kinds["scavenge"])
	assert.Equal(t, d.Given.Stats.FullGCs, kinds["fullgc"])
	assert.Equal(t, d.Given.Stats.Grows, kinds["grow"])

	// A flag beats the file.
	gctuneJSON(t, &d, "--config", cfg, "simulate", gcdemo, "--eden", "8MiB")
	assert.Equal(t, uint64(8<<20), d.Given.Params.NewSpaceBytes)
}

func TestSimulateBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", gcdemo, "--eden", "lots"}, "simulate.eden"},
		{[]string{"simulate", gcdemo, "--headroom", "100KiB"}, "growthHeadroomBytes"},
		{[]string{"simulate", gcdemo, "--eden", "2GiB"}, "newSpaceBytes"},
		{[]string{"simulate", gcdemo, "--ratio", "-1"}, "fullGCRatio"},
		{[]string{"simulate", gcdemo, "--survivors-proportion", "many"}, "simulate.survivors_proportion"},
		{[]string{"simulate", "no-such-workload"}, "not a bundled workload"},
	} {
		_, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, strings.Join(c.args, " "))
		assert.Contains(t, errOut, c.want, strings.Join(c.args, " "))
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
	// An unwritable event log leaves nothing behind and exits 2.
	dir := t.TempDir()
	_, errOut, code := gctune(t, "simulate", gcdemo, "--events", filepath.Join(dir, "missing", "e.csv"))
	assert.Equal(t, cmdutil.ExitUsage, code, errOut)
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries)
}

func TestSimulateBatch(t *testing.T) {
	in := `{"eden":"64MiB","headroom":"256MiB","ratio":2,"survivors_proportion":1}

{"eden":67108864,"headroom":268435456,"ratio":2,"survivors_proportion":1}
{"headroom":"100KiB"}
{"bogus":1}
`
	rs := simulateBatch(t, in, gcdemo)
	require.Len(t, rs, 4, "blank lines are skipped")
	require.Empty(t, rs[0].Error)
	assert.Equal(t, *rs[0].Stats, *rs[1].Stats, "sizes as strings or numbers")
	assert.Greater(t, rs[0].Speedup, 1.0)
	assert.Contains(t, rs[2].Error, "line 4: ")
	assert.Contains(t, rs[2].Error, "growthHeadroomBytes")
	assert.Contains(t, rs[3].Error, `unknown field "bogus"`)

	// The same parameters through the normal command give the same Stats.
	var d simulate.Report
	gctuneJSON(t, &d, "simulate", gcdemo, "--eden", "64MiB", "--headroom", "256MiB", "--ratio", "2", "--survivors-proportion", "1")
	assert.Equal(t, d.Given.Stats, *rs[0].Stats)
}

// TestSimulateBatchLongLinesPharoDuplicates: a line over 64 KB is simulated (bufio.Scanner
// aborted the batch), "pharo" is a survivors proportion, a key given twice is refused, and a
// line over the cap is an error for that line only (issue 11.6).
func TestSimulateBatchLongLinesPharoDuplicates(t *testing.T) {
	long := `{"eden":"64MiB",` + strings.Repeat(" ", 100<<10) + `"ratio":2}`
	tooLong := `{"eden":"` + strings.Repeat("9", simulate.MaxBatchLineBytes) + `"}`
	in := long + "\n" + `{"survivors_proportion":"pharo"}` + "\n" + `{"ratio":2,"ratio":3}` + "\n" + tooLong + "\n" + `{"survivors_proportion":"lots"}` + "\n" + `{"ratio":2}`
	rs := simulateBatch(t, in, "testdata/tiny.yaml")
	require.Len(t, rs, 6)
	assert.Empty(t, rs[0].Error)
	assert.Equal(t, 2.0, rs[0].Params.FullGCRatio)
	assert.Empty(t, rs[1].Error)
	assert.Equal(t, heapsim.DefaultParams().Survivors, rs[1].Params.Survivors)
	assert.Equal(t, `line 3: key "ratio" given twice`, rs[2].Error)
	assert.Contains(t, rs[3].Error, "line 4: longer than")
	assert.Contains(t, rs[4].Error, `want a number ≥ 0 or "pharo"`)
	assert.Empty(t, rs[5].Error, "the last line, without a newline, is read")
	assert.Equal(t, 6, rs[5].Line)
}

// simulateBatch runs simulate's run function with --batch on the workload ref with stdin, at the
// default configuration, requires success and returns the JSON lines it answered.
func simulateBatch(t *testing.T, stdin, ref string) []simulate.BatchResult {
	t.Helper()
	var out, errOut bytes.Buffer
	err := runSimulate(t.Context(), &out, &errOut, defaultConfig(), simulateOptions{Ref: ref, Batch: true, Stdin: strings.NewReader(stdin)})
	require.NoError(t, err, errOut.String())
	dec := json.NewDecoder(&out)
	var rs []simulate.BatchResult
	for dec.More() {
		var r simulate.BatchResult
		require.NoError(t, dec.Decode(&r))
		rs = append(rs, r)
	}
	return rs
}
