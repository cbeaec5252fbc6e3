package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResumeFinishedStudy: resume on a study that holds its target says it is finished and how
// to go on, with its stored recommendation's forecast (as export writes it) and the search's
// fastest trial labelled as such, instead of reprinting the whole result as if it had run
// (issue 21); --json keeps its document, with the hint on stderr.
func TestResumeFinishedStudy(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "done", 3, "--no-seed")
	out, _ := gctuneOK(t, "resume", "done", "--storage", db)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(lines), 4, out)
	assert.Equal(t, "study done is finished (3 of 3 trials): to run more, gctune resume done --more 10 (or --trials N for a new total)", lines[0])
	assert.Regexp(t, `^recommended: trial \d, `, lines[1])
	assert.Regexp(t, `(?m)^  \d+\.\d\d× faster: .* against .* with the defaults, expected over 16 runs of this input again`, out)
	assert.Regexp(t, `(?m)^the search's fastest trial: trial \d, .* against .* with the defaults on the search's runs, \d+\.\d\d× faster$`, out)
	assert.Equal(t, "the recommendation: gctune export done (why: gctune explain done)", lines[len(lines)-1])
	assert.NotContains(t, out, "trials run now")

	var doc sessionDoc
	out, errOut := gctuneOK(t, "--json", "resume", "done", "--storage", db)
	require.NoError(t, jsonUnmarshal(out, &doc))
	assert.Equal(t, 0, doc.TrialsRun)
	assert.Equal(t, 3, doc.Finished)
	assert.Contains(t, errOut, "study done is finished (3 of 3 trials): to run more, gctune resume done --more 10")

	// --more goes on.
	out, _ = gctuneOK(t, "resume", "done", "--storage", db, "--more", "1", "--workers", "1", "-q")
	assert.Contains(t, out, "1 trials run now, 4 of 4 finished")
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestResumeClockDecodedOnce: resume's and worker's --clock is the clock the configuration
// decoded, compared as a clock with the study's: another case of the same clock is the same,
// and the refusal names the clock as it is parsed.
func TestResumeClockDecodedOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	gctuneOK(t, "optimize", "testdata/run.csv", "--study", "us", "--clock", "us", "--storage", db, "--trials", "2", "--no-seed", "--workers", "1", "-q")
	out, _ := gctuneOK(t, "resume", "us", "--storage", db, "--clock", "US")
	assert.Contains(t, out, "study us is finished (2 of 2 trials)")
	for _, args := range [][]string{
		{"resume", "us", "--storage", db, "--clock", " Bytes"},
		{"worker", "--study", "us", "--storage", db, "--clock", "BYTES"},
	} {
		out, errOut, code := gctune(t, args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, `gctune: --clock bytes: study reads workload "testdata/run.csv" with --clock us, and its trials were simulated so; create a new study to read it on another clock`+"\n", errOut)
	}
}
