package costfit

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/spec"
)

func bundled(t *testing.T, name string) *profile.Profile {
	t.Helper()
	sp, err := spec.BundledSpec(name)
	require.NoError(t, err)
	p, err := sp.Generate(spec.GenerateOptions{Seed: 1})
	require.NoError(t, err)
	return p
}

func readMeasured(t *testing.T, path string) Measured {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, err := ParseMeasured(f, path)
	require.NoError(t, err)
	return m
}

// TestIWST23P31GB calibrates to [IWST23-P] Table 1's 3.1 GB default run (5,599 s total, 5,158 s
// of GC) and checks, by simulating again with the fitted cost (not through the basis), that
// the default run of dataframe-3.1gb lands within 5 % of both, with the counts unchanged.
func TestIWST23P31GB(t *testing.T) {
	p := bundled(t, "dataframe-3.1gb")
	m := readMeasured(t, "testdata/iwst23p-3.1gb.json")
	b, err := NewBasis(p, heapsim.DefaultParams(), heapsim.DefaultCost())
	require.NoError(t, err)
	res, err := Fit(b, m)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{GroupMutator}, {GroupScavenge, GroupFullGC}}, res.Groups)
	assert.Equal(t, res.Scales.Scavenge, res.Scales.FullGC)

	st, err := heapsim.Simulate(p, heapsim.DefaultParams(), res.Cost)
	require.NoError(t, err)
	assert.InEpsilon(t, 5599.0, st.TotalSeconds, 0.05, "total %v s", st.TotalSeconds)
	assert.InEpsilon(t, 5158.0, st.GCSeconds, 0.05, "GC %v s", st.GCSeconds)
	assert.Equal(t, b.Stats.Scavenges, st.Scavenges)
	assert.Equal(t, b.Stats.FullGCs, st.FullGCs)
	// The linear prediction is the simulation itself.
	assert.InDelta(t, st.TotalSeconds, res.Predicted.WallSeconds, 1e-6*st.TotalSeconds)
	assert.InDelta(t, st.GCSeconds, res.Predicted.GCSeconds, 1e-6*st.GCSeconds)
}

// TestFitEachCase checks every combination of measured times against a run whose times come
// from known scales: each determined scale is recovered, tied scales are equal, and the
// measured times are met.
func TestFitEachCase(t *testing.T) {
	p := bundled(t, "dataframe-500mb")
	b, err := NewBasis(p, heapsim.DefaultParams(), heapsim.DefaultCost())
	require.NoError(t, err)
	require.Positive(t, b.Stats.FullGCs)
	truth := Scales{Mutator: 0.7, Scavenge: 1.9, FullGC: 0.4}
	tt := b.TimesAt(truth)
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		m      Measured
		groups int
		exact  bool // all three scales determined
	}{
		{"wall", Measured{WallSeconds: tt.WallSeconds}, 1, false},
		{"wall+gc", Measured{WallSeconds: tt.WallSeconds, GCSeconds: f(tt.GCSeconds)}, 2, false},
		{"wall+scavenge", Measured{WallSeconds: tt.WallSeconds, ScavengeSeconds: f(tt.ScavengeSeconds)}, 2, false},
		{"wall+full", Measured{WallSeconds: tt.WallSeconds, FullGCSeconds: f(tt.FullGCSeconds)}, 2, false},
		{"wall+gc+scavenge", Measured{WallSeconds: tt.WallSeconds, GCSeconds: f(tt.GCSeconds), ScavengeSeconds: f(tt.ScavengeSeconds)}, 3, true},
		{"wall+gc+full", Measured{WallSeconds: tt.WallSeconds, GCSeconds: f(tt.GCSeconds), FullGCSeconds: f(tt.FullGCSeconds)}, 3, true},
		{"wall+scavenge+full", Measured{WallSeconds: tt.WallSeconds, ScavengeSeconds: f(tt.ScavengeSeconds), FullGCSeconds: f(tt.FullGCSeconds)}, 3, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Fit(b, c.m)
			require.NoError(t, err)
			assert.Len(t, res.Groups, c.groups)
			assert.InEpsilon(t, tt.WallSeconds, res.Predicted.WallSeconds, 1e-9)
			if c.m.GCSeconds != nil {
				assert.InEpsilon(t, tt.GCSeconds, res.Predicted.GCSeconds, 1e-9)
			}
			if c.m.ScavengeSeconds != nil {
				assert.InEpsilon(t, tt.ScavengeSeconds, res.Predicted.ScavengeSeconds, 1e-9)
			}
			if c.m.FullGCSeconds != nil {
				assert.InEpsilon(t, tt.FullGCSeconds, res.Predicted.FullGCSeconds, 1e-9)
			}
			if c.exact {
				assert.InEpsilon(t, truth.Mutator, res.Scales.Mutator, 1e-6)
				assert.InEpsilon(t, truth.Scavenge, res.Scales.Scavenge, 1e-6)
				assert.InEpsilon(t, truth.FullGC, res.Scales.FullGC, 1e-6)
			}
		})
	}
}

func TestFitImpossible(t *testing.T) {
	p := bundled(t, "dataframe-500mb")
	b, err := NewBasis(p, heapsim.DefaultParams(), heapsim.DefaultCost())
	require.NoError(t, err)
	f := func(v float64) *float64 { return &v }
	// All the wall time in GC: no positive mutator scale.
	_, err = Fit(b, Measured{WallSeconds: 10, GCSeconds: f(10)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no positive mutator scale")
	// More GC than wall.
	_, err = Fit(b, Measured{WallSeconds: 10, GCSeconds: f(11)})
	require.ErrorContains(t, err, "more than wallSeconds")
}

func TestParseMeasured(t *testing.T) {
	m, err := ParseMeasured(strings.NewReader(`{"wallMs": 2500, "gcMs": 500, "scavenges": 12, "scavengeMs": 100, "fullGCs": 2, "fullGCMs": 400}`), "run.json")
	require.NoError(t, err)
	assert.Equal(t, 2.5, m.WallSeconds)
	assert.Equal(t, 0.5, *m.GCSeconds)
	assert.Equal(t, 0.1, *m.ScavengeSeconds)
	assert.Equal(t, 0.4, *m.FullGCSeconds)
	assert.Equal(t, int64(12), *m.Scavenges)
	for _, c := range []struct{ in, want string }{
		{`{}`, "wallSeconds (or wallMs) must be given"},
		{`{"wallSeconds": 1, "wallMs": 1000}`, "both given"},
		{`{"wallSeconds": 1, "gcSecs": 1}`, `unknown field "gcSecs"`},
		{`{"wallSeconds": 1, "scavenges": 1.5}`, "whole number"},
		{`{"wallSeconds": -1}`, "from 0 to"},
		{`[1]`, "run.json"},
	} {
		_, err := ParseMeasured(strings.NewReader(c.in), "run.json")
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.want, c.in)
		assert.True(t, strings.HasPrefix(err.Error(), "costfit: run.json: "), err.Error())
	}
	m, ok, err := ParseStatsLine(`gctune-stats {"wallMs":100,"gcMs":20}`)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, 0.1, m.WallSeconds)
	_, ok, _ = ParseStatsLine("hello")
	assert.False(t, ok)
	_, ok, _ = ParseStatsLine("gctune-statsx {}")
	assert.False(t, ok)
}

func TestFileRoundTrip(t *testing.T) {
	c := heapsim.DefaultCost().Scaled(heapsim.Scales{MutatorByte: 0.5, MutatorObject: 0.5, Scavenge: 2, FullGC: 3})
	f, err := NewFile(c)
	require.NoError(t, err)
	f.Profile = "dataframe-3.1gb"
	f.Scales = &Scales{0.5, 2, 3}
	var sb strings.Builder
	require.NoError(t, WriteFile(&sb, f))
	_, got, err := ReadFile(strings.NewReader(sb.String()), "cost.yaml")
	require.NoError(t, err)
	assert.Equal(t, c, got)

	bad := strings.Replace(sb.String(), "  rsPointerSlotSeconds:", "  rsPointerSlotSecs:", 1)
	_, _, err = ReadFile(strings.NewReader(bad), "cost.yaml")
	require.ErrorContains(t, err, "cost.yaml: unknown coefficient rsPointerSlotSecs")
	neg := strings.Replace(sb.String(), "  compactPasses: 3", "  compactPasses: -3", 1)
	_, _, err = ReadFile(strings.NewReader(neg), "cost.yaml")
	require.ErrorContains(t, err, "compactPasses")
	_, _, err = ReadFile(strings.NewReader("kind: other\n"), "cost.yaml")
	require.ErrorContains(t, err, `kind "other"`)
	assert.False(t, math.IsNaN(got.RSPointerSlotSeconds))
}
