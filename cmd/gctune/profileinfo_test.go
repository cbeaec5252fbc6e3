package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/profilereport"
	"github.com/gctune/gctune/simulate"
	"github.com/gctune/gctune/study"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The line every command prints about testdata/run.csv, an export as FiLiP writes it today.
const (
	runCSVLinePrefix = "profile testdata/run.csv: FiLiP export, era FiLiP (9f1d62e, since 2025-08-04), layout textualAllocatorMethod; "
	runCSVAutoClock  = "clock bytes (layout textualAllocatorMethod, profiler FiLiP: bytes allocated (VM parameter 34"
	runCSVForcedUs   = "clock us (forced to us by option); sampling rate 1/100"
	v11CSV           = "../../profile/filip/testdata/filip/era-v1.1.csv"
)

func TestProfileLineSimulate(t *testing.T) {
	out, errOut := gctuneOK(t, "simulate", "testdata/run.csv")
	assert.True(t, strings.HasPrefix(dropStoreLine(errOut), runCSVLinePrefix+runCSVAutoClock), errOut)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line, no warning: %s", errOut)
	// The profiled run's GC counts beside the simulated default run, said to be perturbed.
	assert.Regexp(t, `(?m)^scavenges +\d+ +\d+ +12$`, out)
	assert.Regexp(t, `(?m)^full GCs +\d+ \(ratio \d+, large \d+\) +\d+ \(ratio \d+, large \d+\) +1$`, out)
	assert.Contains(t, out, "profiled run: FiLiP metadata (totalScavenges, totalFullGCs): the profiled run, slowed and perturbed by the profiler")

	_, errOut = gctuneOK(t, "simulate", "--clock", "us", "testdata/run.csv")
	assert.Equal(t, runCSVLinePrefix+runCSVForcedUs, firstLine(dropStoreLine(errOut)))
	assert.Contains(t, errOut, "warning: testdata/run.csv: clock forced to us; the era says bytes")
	assert.Contains(t, errOut, "warning: testdata/run.csv: a sampled profile (rate 0.01) on the microsecond clock cannot be rebuilt")

	var doc simulate.Report
	gctuneJSON(t, &doc, "simulate", "--clock", "us", "testdata/run.csv")
	assert.Equal(t, "us", doc.Profile.Clock)
	assert.Equal(t, runCSVLinePrefix+runCSVForcedUs, doc.Profile.Line)
	assert.Equal(t, 12, doc.Profile.Profiled.Scavenges)

	// An export of Illimani v1.1, read with no flag on its microsecond clock.
	_, errOut = gctuneOK(t, "simulate", v11CSV)
	assert.Contains(t, firstLine(errOut), "era Illimani v1.0-v1.1 (1a4a395, 2024-02-24 to 2024-08-21), layout forcedFinalization; "+
		"clock us (layout forcedFinalization, profiler IllObjectLifetimesProfiler: microseconds")
	assert.Contains(t, errOut, "cannot be rebuilt")

	// --batch prints the line too, on standard error.
	cmdOut, errOut, code := gctuneIn(t, `{"eden":"32MiB"}`+"\n", "simulate", "--batch", "--clock", "bytes", "testdata/run.csv")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, runCSVLinePrefix+"clock bytes (forced to bytes by option); sampling rate 1/100", firstLine(errOut))
	assert.Contains(t, cmdOut, `"speedup"`)
}

func TestProfileLineBadMetadata(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "run.csv")
	b, err := os.ReadFile("testdata/run.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(csv, b, 0o644))
	for name, meta := range map[string]string{
		`invalid metadata JSON: key "samplingRate" appears twice`: "{\n\t\"samplingRate\" : 0.01,\n\t\"samplingRate\" : 1\n}",
		"metadata larger than 16 MiB":                             `{"profiledCode" : "` + strings.Repeat("x", 16<<20) + `"}`,
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), []byte(meta), 0o644))
		for _, cmd := range [][]string{{"simulate", csv}, {"lifetimes", csv}, {"optimize", csv, "--storage", filepath.Join(dir, "x.db")}} {
			out, errOut, code := gctune(t, cmd...)
			assert.Equal(t, cmdutil.ExitUsage, code, "%v", cmd)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			assert.Contains(t, errOut, "gctune: "+filepath.Join(dir, "run.json")+": "+name)
		}
	}
}

func TestProfileLineStudyCommands(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")

	// optimize: the line on standard error, the counts beside the default in the summary.
	out, errOut := gctuneOK(t, "optimize", "testdata/run.csv", "--storage", db, "--trials", "2", "--no-seed", "--workers", "1")
	assert.True(t, strings.HasPrefix(dropStoreLine(errOut), runCSVLinePrefix+runCSVAutoClock), errOut)
	assert.Regexp(t, `testdata/run.csv: simulated default run: \d+ scavenges, \d+ full GCs; FiLiP metadata \(totalScavenges, totalFullGCs\): the profiled run, slowed and perturbed by the profiler: 12 scavenges, 1 full GCs`, out)

	// optimize --clock us: stored with the study, in the JSON document.
	var sess sessionDoc
	gctuneJSON(t, &sess, "optimize", "testdata/run.csv", "--study", "us", "--clock", "us", "--storage", db, "--trials", "2", "--no-seed", "--workers", "1")
	require.Len(t, sess.Profiles, 1)
	assert.Equal(t, runCSVLinePrefix+runCSVForcedUs, sess.Profiles[0].Line)
	require.NotNil(t, sess.Profiles[0].SimulatedDefault)
	assert.Equal(t, "us", sess.Workloads[0].Clock)

	// study create --clock us.
	var created createDoc
	gctuneJSON(t, &created, "study", "create", "created", "testdata/run.csv", "--clock", "us", "--storage", db, "--trials", "2", "--no-seed")
	require.Len(t, created.Profiles, 1)
	assert.Equal(t, "us", created.Profiles[0].Clock)
	_, errOut = gctuneOK(t, "study", "create", "created2", "testdata/run.csv", "--storage", db, "--trials", "2", "--no-seed")
	assert.True(t, strings.HasPrefix(dropStoreLine(errOut), runCSVLinePrefix+runCSVAutoClock), errOut)

	// resume and worker keep the study's clock: the same is fine, another refused in one line.
	for _, args := range [][]string{
		{"resume", "us", "--storage", db, "--clock", "bytes"},
		{"worker", "--study", "us", "--storage", db, "--clock", "bytes"},
	} {
		out, errOut, code := gctune(t, args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, `gctune: --clock bytes: study reads workload "testdata/run.csv" with --clock us, and its trials were simulated so; create a new study to read it on another clock`+"\n", errOut)
	}
	_, errOut = gctuneOK(t, "resume", "us", "--storage", db, "--clock", "us", "--more", "1", "--workers", "1")
	assert.Equal(t, runCSVLinePrefix+runCSVForcedUs, firstLine(dropStoreLine(errOut)))
	_, errOut = gctuneOK(t, "worker", "--study", "created", "--storage", db, "--clock", "us", "--workers", "1", "-q")

	// explain and report read on the study's clock, or on --clock, and say so.
	_, errOut = gctuneOK(t, "explain", "testdata/run.csv", "--storage", db)
	assert.True(t, strings.HasPrefix(dropStoreLine(errOut), runCSVLinePrefix+runCSVAutoClock), errOut)
	var ex struct {
		Profiles []study.ProfileInfo `json:"profiles"`
	}
	gctuneJSON(t, &ex, "explain", "testdata/run.csv", "--storage", db, "--clock", "us")
	require.Len(t, ex.Profiles, 1)
	assert.Equal(t, runCSVLinePrefix+"clock us (forced to us by option; the study read it with --clock auto); sampling rate 1/100", ex.Profiles[0].Line)

	page := filepath.Join(dir, "r.html")
	_, errOut = gctuneOK(t, "report", "us", "--storage", db, "-o", page, "--sweep-points", "3")
	assert.Equal(t, runCSVLinePrefix+runCSVForcedUs, firstLine(dropStoreLine(errOut)))
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), `<p class="note profile-line">profile testdata/run.csv: FiLiP export, era FiLiP (9f1d62e, since 2025-08-04)`)
	assert.Contains(t, string(html), "FiLiP metadata (totalScavenges, totalFullGCs): the profiled run, slowed and perturbed by the profiler: 12 scavenges, 1 full GCs.")
	assert.Contains(t, string(html), "Warning: a sampled profile (rate 0.01) on the microsecond clock cannot be rebuilt")
}

// TestLonelyExportNeedsRate: a FiLiP export without its .json is refused (exit 2, one line
// naming it and how to give the rate) by every command that opens it, unless --rate or --meta
// says the rate; a study keeps the rate it was given, so resume reopens the export alike.
func TestLonelyExportNeedsRate(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "lonely.csv")
	b, err := os.ReadFile("testdata/run.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(csv, b, 0o644))
	db := filepath.Join(dir, "s.db")
	measured := filepath.Join(dir, "m.json")
	require.NoError(t, os.WriteFile(measured, []byte(`{"wallSeconds": 10}`), 0o644))
	for _, cmd := range [][]string{{"lifetimes", csv}, {"simulate", csv}, {"calibrate", csv, "--measured", measured},
		{"optimize", csv, "--storage", db, "--trials", "2"}, {"study", "create", "s", csv, "--storage", db}} {
		out, errOut, code := gctune(t, cmd...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v", cmd)
		assert.Empty(t, out)
		assert.Equal(t, "gctune: "+csv+": sampling rate unknown: no metadata "+filepath.Join(dir, "lonely.json")+
			"; give it with --rate 1/N, or the metadata with --meta FILE\n", errOut, "%v", cmd)
	}
	_, errOut, code := gctune(t, "sample", csv, "-o", filepath.Join(dir, "out.csv"))
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "give it with --input-rate 1/N")

	var doc profilereport.Lifetimes
	gctuneJSON(t, &doc, "lifetimes", csv, "--rate", "1/100")
	assert.Equal(t, 0.01, doc.Profile.SamplingRate)
	gctuneJSON(t, &doc, "lifetimes", csv, "--meta", "testdata/run.json")
	assert.Equal(t, 0.01, doc.Profile.SamplingRate)
	assert.Equal(t, &study.ProfiledRun{Scavenges: 12, FullGCs: 1, Source: study.ProfiledByFiLiP}, doc.Profile.Profiled)

	// A rate that contradicts the metadata is refused; a bad one names its flag.
	_, errOut, code = gctune(t, "lifetimes", "testdata/run.csv", "--rate", "1/1000")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: testdata/run.json: the given sampling rate 0.001 contradicts the metadata's samplingRate 0.01\n", errOut)
	_, errOut, code = gctune(t, "lifetimes", csv, "--rate", "lots")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: --rate "lots": want 1/N with N a positive integer (1/100, 0.001 or 1)`+"\n", errOut)
	_, errOut, code = gctune(t, "optimize", csv, "tiny", "--meta", "testdata/run.json", "--storage", db)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "--meta testdata/run.json names one export's metadata, and there are 2 workloads")

	// A rate or metadata for a profile that is not a FiLiP export is refused, not silently
	// ignored (issue 31: lifetimes --rate 1/7 on a bundled workload read it whole).
	_, errOut, code = gctune(t, "lifetimes", "cache-churn", "--rate", "1/7")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: cache-churn is a bundled workload, not a FiLiP export: a sampling rate (1/7) says how an export was recorded, "+
		"and this profile has every object (to sample it: gctune sample cache-churn --rate 1/7 -o out.csv)\n", errOut)
	_, errOut, code = gctune(t, "simulate", "testdata/tiny.yaml", "--meta", "testdata/run.json")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: testdata/tiny.yaml is a workload spec, not a FiLiP export: it has no metadata file (--meta testdata/run.json)\n", errOut)

	// The study keeps the rate: resume reopens the lonely export with it.
	gctuneOK(t, "optimize", csv, "--rate", "1/100", "--storage", db, "--trials", "2", "--no-seed", "--workers", "1", "--study", "lonely")
	_, errOut = gctuneOK(t, "resume", "lonely", "--storage", db, "--more", "1", "--workers", "1")
	assert.Contains(t, errOut, "sampling rate 1/100")
}

// TestNullMetadataRefused: metadata that would have to be guessed is refused, naming its key.
func TestNullMetadataRefused(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "run.csv")
	b, err := os.ReadFile("testdata/run.csv")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(csv, b, 0o644))
	for meta, want := range map[string]string{
		"null":                    "the metadata is null, want an object",
		`{"samplingRate": null}`:  "samplingRate is null, want a value",
		`{"samplingRate": 1e400}`: "samplingRate 1e400 is not a finite number",
		`{"samplingRate": 0.01, "totalScavenges": -5}`:        "totalScavenges -5 is not a count",
		`{"samplingRate": 0.01, "totalExecutionTime": 1e308}`: "totalExecutionTime 1e+308 is not a run's length",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), []byte(meta), 0o644))
		out, errOut, code := gctune(t, "simulate", csv)
		assert.Equal(t, cmdutil.ExitUsage, code, meta)
		assert.Empty(t, out)
		assert.Equal(t, "gctune: "+filepath.Join(dir, "run.json")+": "+want, strings.TrimSpace(errOut)[:len("gctune: "+filepath.Join(dir, "run.json")+": "+want)], meta)
		assert.Equal(t, 1, strings.Count(errOut, "\n"))
	}
}
