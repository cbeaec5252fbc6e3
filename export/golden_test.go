package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gctune/gctune/internal/recommendtest"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/recommend"
	"github.com/gctune/gctune/trialattr"
	"github.com/gctune/gctune/tunable"
	"github.com/gctune/gctune/uncertainty"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// testMeta is a study's metadata as gctune export fills it.
func testMeta(study string, workloads ...string) Meta {
	return Meta{Study: study, Workloads: workloads, VM: heapsim.DefaultParams(), DefaultValue: 4583.136,
		Provenance: Provenance{Storage: "gctune.db", Created: "2026-11-24T02:00:00Z", StudyVersion: "test", ExportVersion: "test",
			Seed: 1, Sampler: "tpe", Fingerprints: map[string]string{}, Note: "predicted"}}
}

// testRecommendation is a recommendation as recommend.Recommend makes it for the dataframe
// study: three changes kept, two put back.
func testRecommendation() *recommend.Recommendation { return recommendtest.Recommendation() }

// testRobust is testRecommendation judged on 16 perturbed runs: its interval, margins and a
// move off a cliff.
func testRobust() *recommend.Recommendation { return recommendtest.Robust() }

// testKeepDefaults is request-server's: 1.01x at best, so keep the defaults.
func testKeepDefaults() *recommend.Recommendation {
	def := tunable.DefaultPoint(heapsim.DefaultParams()).Rounded()
	pt := def
	pt.NewSpaceBytes, pt.Proportion = 964<<20, 0.0583
	return &recommend.Recommendation{Tolerance: 0.01, DefaultValue: 124.1,
		Best:   recommend.Candidate{Number: 78, Value: 122.4, PeakFootprintBytes: 1254084608},
		Chosen: recommend.Candidate{Number: 87, Value: 123.5, PeakFootprintBytes: 141545472},
		Within: 129, Trial: 87, Point: pt, AtDefault: []string{tunable.ParamHeadroom, tunable.ParamShrink, tunable.ParamRatio},
		Value: 123.9, Speedup: 124.1 / 123.9, PeakFootprintBytes: 141545472, GCShare: 0.014, TotalSeconds: 123.9, KeepDefaults: true,
		PutBack: []recommend.Step{
			{Param: tunable.ParamRatio, Label: "full GC ratio", Value: 7.914, Default: 0.333333, Objective: 123.6, PeakFootprintBytes: 141545472, Feasible: true, Cost: -0.0025},
		},
		Kept: []recommend.Step{
			{Param: tunable.ParamProportion, Label: "survivors to keep", Value: 0.0583, Default: 0.9775, Objective: 127.4, PeakFootprintBytes: 141545472, Feasible: true, Cost: 0.03, Why: "not less than the tolerance, 1 %"},
			{Param: tunable.ParamNewSpace, Label: "new space (eden) size", Value: 964 << 20, Default: 16 << 20, Objective: 123.6, PeakFootprintBytes: 147652608, Feasible: true, Cost: -0.0025, Why: "it would raise the peak footprint by 4.3 %"},
		}}
}

// testHypothesesMeta is a sampled export's study: one file, searched under two hypotheses.
func testHypothesesMeta() Meta {
	m := testMeta("df.csv", "df.csv, if the large objects the sample missed live as estimated from the sample",
		"df.csv, if the large objects the sample missed live to the end and hold the long-lived small objects")
	m.Files = []string{"df.csv"}
	m.DefaultValue = 1
	return m
}

// testHypotheses is testRobust on the two hypotheses: slowdowns, and each one's seconds.
func testHypotheses() *recommend.Recommendation {
	r := testRobust()
	r.DefaultValue, r.Value, r.Speedup = 1, 0.334, 1/0.334
	r.Robust.NominalValue, r.Robust.NominalSpeedup = 0.148, 1/0.148
	vals := []float64{0.12, 0.15, 0.2, 0.22, 0.25, 0.28, 0.3, 0.31, 0.33, 0.35, 0.37, 0.4, 0.42, 0.45, 0.5, 0.69}
	r.Robust.Values, r.Robust.DefaultValues = vals, make([]float64, len(vals))
	for k := range vals {
		r.Robust.DefaultValues[k] = 1
	}
	r.Robust.ValueInterval = uncertainty.PredictionInterval(vals, uncertainty.DefaultCoverage)
	r.Robust.Speedups = make([]float64, len(vals))
	for k, v := range vals {
		r.Robust.Speedups[k] = 1 / v
	}
	r.Robust.SpeedupInterval = r.Robust.ValueInterval.Invert()
	one := uncertainty.Interval{Lo: 1, Hi: 1, Coverage: uncertainty.DefaultCoverage, N: len(vals)}
	r.Robust.Forecast.DefaultInterval = one
	r.Robust.Readings = 2
	r.Robust.Evidence = &recommend.Evidence{HasCounts: true, Scavenges: 1145, FullGCs: 309, Agrees: true,
		Words: "weighed against the export's 1145 scavenges and 309 full GCs: it stands on df.csv, if the large objects the sample missed live as estimated from the sample (1187 scavenges, 302 full GCs at the defaults; weight 61 %) and df.csv, if the large objects the sample missed live to the end and hold the long-lived small objects (1150 scavenges, 335 full GCs at the defaults; weight 39 %)"}
	r.Workloads = []recommend.WorkloadFigures{
		{Name: "df.csv, if the large objects the sample missed live as estimated from the sample", Seconds: 582, DefaultSeconds: 3057, Speedup: 3057.0 / 582, Slowdown: 0.334, Worst: true},
		{Name: "df.csv, if the large objects the sample missed live to the end and hold the long-lived small objects", Seconds: 654, DefaultSeconds: 4886, Speedup: 4886.0 / 654, Slowdown: 0.2},
	}
	return r
}

// testTrial is a stored trial, all five parameters set.
func testTrial() goptuna.FrozenTrial {
	p := tunable.Point{NewSpaceBytes: 979.4 * (1 << 20), HeadroomBytes: 1400 << 20, ShrinkBytes: 4 << 20, Ratio: 13.4172, Proportion: 1.2}
	params := map[string]interface{}{}
	for k, v := range p.Internal() {
		params[k] = v
	}
	return goptuna.FrozenTrial{Number: 113, State: goptuna.TrialStateComplete, Value: 576.109, Params: params,
		UserAttrs: map[string]string{trialattr.Feasible: "true", trialattr.Footprint: "11819536384",
			trialattr.TotalSeconds: "576.109", trialattr.GCShare: "0.063"}}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./export -update to create it")
	assert.Equal(t, string(want), string(got), "%s differs; run go test ./export -update and review the diff", path)
}

func TestGolden(t *testing.T) {
	trial, err := FromTrial(testMeta("dataframe-3.1gb", "dataframe-3.1gb"), testTrial())
	require.NoError(t, err)
	cases := []struct {
		name string
		c    *Config
	}{
		{"recommended", FromRecommendation(testMeta("dataframe-3.1gb", "dataframe-3.1gb"), testRecommendation())},
		{"keep-defaults", FromRecommendation(testMeta("request-server", "request-server"), testKeepDefaults())},
		{"robust", FromRecommendation(testMeta("dataframe-3.1gb", "dataframe-3.1gb"), testRobust())},
		{"trial", trial},
		{"hypotheses", FromRecommendation(testHypothesesMeta(), testHypotheses())},
		{"names", FromRecommendation(testMeta("x\" Smalltalk os runCommand: 'rm -rf ~'. \"\nstorage: evil", "my \"run\".csv", "a\nb: c"), testRecommendation())},
	}
	for _, tc := range cases {
		for _, f := range []Format{ST, JSON, YAML, Flags} {
			t.Run(tc.name+"."+string(f), func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, Write(&b, f, tc.c, "test"))
				golden(t, tc.name+"."+string(f), b.Bytes())
			})
		}
	}
}

func TestMiB(t *testing.T) {
	for n, want := range map[uint64]string{
		2089 << 20:    "2,089 MiB",
		1 << 20:       "1 MiB",
		3 << 19:       "1.5 MiB",
		146735104:     "139.9375 MiB",
		146737152:     "139.94 MiB (146,737,152 bytes)",
		524289:        "0.50 MiB (524,289 bytes)",
		(1 << 30) - 1: "1,024.00 MiB (1,073,741,823 bytes)",
		0:             "0 MiB",
		10198 << 20:   "10,198 MiB",
		10693365760:   "10,197.99 MiB (10,693,365,760 bytes)",
	} {
		assert.Equal(t, want, MiB(n), "%d", n)
	}
}

func TestQuote(t *testing.T) {
	assert.Equal(t, "dataframe-3.1gb", Quote("dataframe-3.1gb"))
	assert.Equal(t, "a+b c", Quote("a+b c"))
	assert.Equal(t, `"a\nb"`, Quote("a\nb"))
	assert.Equal(t, `""`, Quote(""))
	assert.Equal(t, `" x"`, Quote(" x"))
	assert.Equal(t, `"a\"b"`, Quote(`a"b`))
	assert.Equal(t, `"a#b"`, Quote("a#b"))
	assert.Equal(t, `"\u2028"`, Quote("\u2028"))
	assert.Equal(t, `"\xff"`, Quote("\xff"))
}

func TestShellQuote(t *testing.T) {
	assert.Equal(t, "dataframe-3.1gb", ShellQuote("dataframe-3.1gb"))
	assert.Equal(t, "a+b", ShellQuote("a+b"))
	assert.Equal(t, "'a b'", ShellQuote("a b"))
	assert.Equal(t, `'it'\''s'`, ShellQuote("it's"))
	assert.Equal(t, "'$(rm -rf ~)'", ShellQuote("$(rm -rf ~)"))
	assert.Equal(t, "''", ShellQuote(""))
}

func TestParseFormat(t *testing.T) {
	for _, f := range []string{"st", "json", "yaml", "flags"} {
		got, err := ParseFormat(f)
		require.NoError(t, err)
		assert.Equal(t, Format(f), got)
	}
	_, err := ParseFormat("xml")
	assert.ErrorContains(t, err, `format "xml"`)
}

func TestTiming(t *testing.T) {
	for _, name := range tunable.Names() {
		vm, when, persists := Timing(name)
		assert.NotEmpty(t, vm, name)
		assert.NotEmpty(t, when, name)
		assert.NotEmpty(t, persists, name)
	}
	_, when, _ := Timing(tunable.ParamNewSpace)
	assert.Contains(t, when, "next launch")
}

func TestParametersRoundTrip(t *testing.T) {
	c := FromRecommendation(testMeta("s", "w"), testRecommendation())
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, c))
	var back Config
	require.NoError(t, json.Unmarshal(b.Bytes(), &back))
	require.Len(t, back.Parameters, len(c.Parameters))
	for i, p := range c.Parameters {
		assert.Equal(t, p.Key, back.Parameters[i].Key)
		assert.EqualValues(t, p.Value, back.Parameters[i].Value, p.Key)
	}
	assert.Error(t, json.Unmarshal([]byte(`{"parameters": [1]}`), &back))
}

// TestSurvivorsCountWrittenAsProportion: survivors to keep given as a count (a VM parameter 6
// written by hand) is exported as its proportion, which is what gctune takes, in the flags and
// in the configuration file; the ratio is a YAML number there, the sizes text.
func TestSurvivorsCountWrittenAsProportion(t *testing.T) {
	c := FromRecommendation(testMeta("s", "w"), testRecommendation())
	c.VM.Survivors = heapsim.Survivors{Mode: heapsim.SurvivorsCount, Count: 100}
	want := strconv.FormatFloat(c.VM.TenuringProportion(), 'g', -1, 64)
	var b bytes.Buffer
	require.NoError(t, WriteFlags(&b, c))
	assert.Contains(t, b.String(), "--survivors-proportion "+want+"\n")
	b.Reset()
	require.NoError(t, WriteYAML(&b, c, "test"))
	assert.Contains(t, b.String(), "survivors_proportion: \""+want+"\"\n")
	assert.Contains(t, b.String(), "ratio: "+strconv.FormatFloat(c.VM.FullGCRatio, 'g', -1, 64)+"\n")
	assert.Contains(t, b.String(), "eden: "+tunable.All()[0].Text(c.VM)+"\n")
}
