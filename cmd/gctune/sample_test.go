package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/lifetimes"
	"github.com/gctune/gctune/profilereport"
	"github.com/gctune/gctune/simulate"
	"github.com/gctune/gctune/study"
)

func TestSampleWritesExportReadBack(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.csv")
	var doc simulate.SampleReport
	gctuneJSON(t, &doc, "sample", "testdata/tiny.yaml", "--rate", "1/10", "--phase", "3", "-o", out)
	assert.Equal(t, uint64(10), doc.Every)
	assert.Equal(t, filepath.Join(dir, "run.json"), doc.Meta)
	require.Positive(t, doc.Rows)
	assert.Equal(t, (doc.Allocations-3+9)/10, doc.Rows)

	csv, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(csv), `"finalizationTimeInMicroSeconds","sizeInBytes","initializationTimeInMicroSeconds","allocatedObjectClass","survivedScavenges","survivedFullGCs","textualAllocatorMethod","textualAllocatorMethodOffset"`+"\n"))
	meta, err := os.ReadFile(doc.Meta)
	require.NoError(t, err)
	for _, want := range []string{"{\n\t\"", `"samplingRate" : 0.1`, `"profiler" : "FiLiP"`, `"totalScavenges" : `, `"totalExecutionTime" : `} {
		assert.Contains(t, string(meta), want)
	}

	// Read back on the bytes clock: rebuilt, one line saying so.
	text, _ := gctuneOK(t, "lifetimes", "--clock", "bytes", out)
	assert.Contains(t, text, "rebuilt from 1/10 sampling")
	var lt profilereport.Lifetimes
	gctuneJSON(t, &lt, "lifetimes", "--clock", "bytes", "--no-rebuild", out)
	assert.Nil(t, lt.Input.Rebuild)
}

func TestSampleRefusesAndBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.csv")
	_, errOut, code := gctune(t, "sample", "testdata/tiny.yaml", "-o", out, "--rate", "1/5")
	require.Equal(t, 0, code, errOut)
	before, err := os.ReadFile(out)
	require.NoError(t, err)

	_, errOut, code = gctune(t, "sample", "testdata/tiny.yaml", "-o", out, "--rate", "1/7")
	assert.Equal(t, 2, code)
	assert.Equal(t, "gctune: "+out+" exists: not replaced (--force replaces it)", lastLine(errOut))
	after, _ := os.ReadFile(out)
	assert.Equal(t, before, after, "the existing export was changed")

	_, errOut = gctuneOK(t, "sample", "testdata/tiny.yaml", "-o", out, "--rate", "1/7", "--force")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rate", "3/10", "-o", filepath.Join(dir, "a.csv")}, `--rate "3/10": want 1/N`},
		{[]string{"--rate", "0.3", "-o", filepath.Join(dir, "a.csv")}, `--rate "0.3": want 1/N`},
		{[]string{"--rate", "1/10", "--phase", "10", "-o", filepath.Join(dir, "a.csv")}, "--phase 10: want 0 to 9"},
		{[]string{"--rate", "1/10", "-o", filepath.Join(dir, "a.txt")}, "must end in .csv"},
		{[]string{"--rate", "1/10"}, "sample needs -o OUT.csv"},
		{[]string{"--rate", "1/10", "--start-bytes", "0", "-o", filepath.Join(dir, "a.csv")}, "--start-bytes 0"},
	} {
		_, errOut, code := gctune(t, append([]string{"sample", "testdata/tiny.yaml"}, tc.args...)...)
		assert.Equal(t, 2, code, tc.args)
		assert.Contains(t, lastLine(errOut), tc.want)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "one line: %q", errOut)
	}
	_, err = os.Stat(filepath.Join(dir, "a.csv"))
	assert.True(t, os.IsNotExist(err), "a refused sample left a file")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.Contains(e.Name(), ".tmp"), "temporary file left: %s", e.Name())
	}
}

func TestLongOptimizeSampledExportWeighsTwoHypotheses(t *testing.T) {
	if testing.Short() {
		t.Skip("optimizes a sampled export twice under two hypotheses, each with its recommendation (slow under the race detector): runs without -short")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "img.csv")
	gctuneOK(t, "sample", "image-processing", "--resolution", "0.001", "--rate", "1/1000", "-o", out)
	t.Setenv("GCTUNE_LIFETIMES_CLOCK", "bytes")
	db := filepath.Join(dir, "s.db")
	var doc sessionDoc
	gctuneJSON(t, &doc, "optimize", out, "--trials", "3", "--workers", "1", "--storage", db)
	require.Len(t, doc.Workloads, 2)
	assert.Equal(t, "auto", doc.Workloads[0].Rebuild)
	assert.Equal(t, "stored", doc.Workloads[1].Rebuild)
	assert.NotEqual(t, doc.Workloads[0].Fingerprint, doc.Workloads[1].Fingerprint)
	// Two readings of one run, stored as such (the objective averages them).
	assert.Equal(t, out, doc.Workloads[0].Run)
	assert.Equal(t, out, doc.Workloads[1].Run)
	// resume reopens both.
	gctuneOK(t, "resume", doc.Study, "--more", "1", "--storage", db, "-q")
	// The export names both hypotheses and keeps both fingerprints.
	var exp struct {
		Workloads  []string `json:"workloads"`
		Provenance struct {
			Fingerprints map[string]string `json:"fingerprints"`
		} `json:"provenance"`
	}
	gctuneJSON(t, &exp, "export", doc.Study, "--storage", db, "--format", "json")
	assert.Equal(t, []string{out + ", " + study.HypothesisWords("auto"), out + ", " + study.HypothesisWords("stored")}, exp.Workloads)
	assert.Len(t, exp.Provenance.Fingerprints, 2)

	// In the user's terms: the file once, the profile line once, each hypothesis in words with
	// its seconds; the two are readings of one run, averaged, so neither is "guarded against".
	stdout, stderr := gctuneOK(t, "optimize", out, "--trials", "3", "--workers", "1", "--storage", db, "--study", "words")
	assert.Contains(t, stderr, "3 trials on "+out+" under 2 hypotheses,")
	assert.NotContains(t, stderr, out+", "+out)
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "profile ") {
			assert.Equal(t, 1, strings.Count(stderr, line+"\n"), "said once: %s", line)
		}
	}
	assert.NotContains(t, stdout, "[large objects")
	assert.NotContains(t, stdout, "against 1×")
	assert.NotContains(t, stdout, "worst slowdown")
	for _, h := range []string{"auto", "stored"} {
		assert.Regexp(t, `(?m)^  `+regexp.QuoteMeta(out+", "+study.HypothesisWords(h))+`: (expected|predicted) [0-9.,]+ s against [0-9.,]+ s with the defaults, [0-9.]+× faster`, stdout)
	}
	assert.NotContains(t, stdout, "guards against", stdout)
	// The run may be any kept reading: the stated intervals cover each kept one on every run.
	assert.Contains(t, stdout, "weighed over the 2 readings of the run")
	assert.NotContains(t, stdout, "on the slower workload", "the search's fastest is judged on the readings' mean too")
	assert.Contains(t, stdout, "weighed over the 2 readings of the run")
	assert.Contains(t, stdout, "  the export's evidence: ")
	var pred struct {
		Predicted struct {
			Replicas int `json:"replicas"`
			Interval struct {
				N int `json:"n"`
			} `json:"interval"`
			SpeedupInterval struct {
				Lo, Hi float64
				N      int `json:"n"`
			} `json:"speedupInterval"`
		} `json:"predicted"`
	}
	gctuneJSON(t, &pred, "export", "words", "--storage", db, "--format", "json")
	require.Positive(t, pred.Predicted.Replicas)
	assert.Equal(t, pred.Predicted.Replicas, pred.Predicted.Interval.N, "over the runs, each kept reading's covered")
	assert.Equal(t, pred.Predicted.Replicas, pred.Predicted.SpeedupInterval.N)
	assert.Contains(t, stderr, "the search weighs two hypotheses, by the mean of their slowdowns (two readings of one run)")
	st, _ := gctuneOK(t, "export", "words", "--storage", db, "--format", "st")
	assert.Contains(t, st, "GC parameters for "+out+" (study words,")
	assert.NotContains(t, st, "guards against")
	assert.NotContains(t, st, "[large objects")

	// lifetimes gives the containers under both hypotheses; the stored one's slots are those
	// optimize seeds from.
	var lt profilereport.Lifetimes
	gctuneJSON(t, &lt, "lifetimes", out)
	require.NotNil(t, lt.Stored)
	slots := uint64(0)
	for _, r := range doc.Plan.Rules {
		if strings.Contains(r.Reason, "containers with") {
			_, err := fmt.Sscanf(r.Reason[strings.Index(r.Reason, "containers with "):], "containers with %d slots", &slots)
			require.NoError(t, err)
		}
	}
	if slots > 0 {
		assert.Equal(t, slots, lt.Stored.Containers.TotalSlots+lt.Summary.Containers.TotalSlots)
	}
	text, _ := gctuneOK(t, "lifetimes", out)
	assert.Contains(t, text, lifetimes.ContainersText(lt.Stored.Containers)+" "+study.HypothesisWords("stored")+" (optimize weighs both)")

	var one sessionDoc
	gctuneJSON(t, &one, "optimize", out, "--trials", "2", "--workers", "1", "--storage", db, "--study", "short", "--rebuild", "short")
	require.Len(t, one.Workloads, 1)
	assert.Equal(t, "short", one.Workloads[0].Rebuild)
}
