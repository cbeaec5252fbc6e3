package pretenure

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/uncertainty"
)

// TestAdviceText: the table of the sites tried, and what is advised or that nothing is.
func TestAdviceText(t *testing.T) {
	c := Candidate{Sites: []string{"App>>#cache @3"}, TenuredBytes: 3 << 20, LongLivedShare: 1, Gain: 1.05,
		Interval: uncertainty.Interval{Lo: 1.04, Hi: 1.06}, FullGCs: 2, FullGCsPretenured: 1, Advised: true, Change: "in App>>#cache: basicNewTenured"}
	a := &Advice{Params: heapsim.DefaultParams(), Replicas: 4, Tolerance: 0.01, Candidates: []Candidate{c}}
	var b bytes.Buffer
	require.NoError(t, a.WriteText(&b))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, "pretenuring on top of eden 16 MiB, headroom 16 MiB, ratio 0.333333; judged on 4 perturbed replicas\n("+Note+")\n\n"), out)
	assert.Contains(t, out, `  "App>>#cache @3"  3 MiB                100 %       1.050×  1.040×-1.060×  2 → 1     yes`)
	assert.Contains(t, out, "\nadvised: 1.050× faster (1.040× to 1.060× over the replicas) with this change to the Pharo code:\n  in App>>#cache: basicNewTenured\n")

	a.Replicas, a.Candidates[0].Advised = 0, false
	b.Reset()
	require.NoError(t, a.WriteText(&b))
	assert.Contains(t, b.String(), "judged on the profiled run (uncertainty model off)")
	assert.Contains(t, b.String(), "\nno site gains more than 1 %: leave the code as it is\n")
}

// TestForExplain: the attribution alone for a trial as it is; with tuned parameters, the
// advice too, and its text.
func TestForExplain(t *testing.T) {
	prob := problem(t, twoSites(t), 2)
	docs, adv, err := ForExplain(prob, nil)
	require.NoError(t, err)
	require.Len(t, docs, 1)
	assert.Nil(t, adv)
	tuned := heapsim.DefaultParams()
	docs, adv, err = ForExplain(prob, &tuned)
	require.NoError(t, err)
	require.NotNil(t, adv)
	var b bytes.Buffer
	require.NoError(t, WriteExplainText(&b, docs, adv))
	out := b.String()
	assert.Contains(t, out, "\nWhere the GC cost comes from at the defaults, by allocation site (w):\n")
	assert.Contains(t, out, `  "App>>#cache @3": `)
	assert.Contains(t, out, "copied by the scavenger then tenured;")
	assert.Contains(t, out, "\nPretenuring on top of the recommendation ("+Note+"):\n")
	b.Reset()
	require.NoError(t, WriteExplainText(&b, nil, adv))
	assert.Empty(t, b.String(), "no site, nothing said")
}

// TestSitesTable: a profile without sites has no table; one with sites gets a row each, the
// scavenger's tenured bytes from the simulation at the defaults.
func TestSitesTable(t *testing.T) {
	p := twoSites(t)
	d, err := NewSitesTable(p, false, 0.5)
	require.NoError(t, err)
	require.Len(t, d.Rows, 2)
	assert.Equal(t, "heapsim at the VM defaults", d.Simulation)
	var b bytes.Buffer
	require.NoError(t, d.WriteText(&b, 1))
	out := b.String()
	assert.Contains(t, out, "at the defaults (1 of 2)\n")
	assert.Contains(t, out, "COPIED THEN TENURED")
	assert.NotContains(t, out, "sampled at")
	assert.Equal(t, 4, strings.Count(out, "\n"), "blank, title, header, one row")
	var nilTable *SitesTable
	require.NoError(t, nilTable.WriteText(&b, 0))
}

// TestJudgeModel: the configured model, its replicas replaced when asked (the default model's
// perturbations when it is off), never search replicas.
func TestJudgeModel(t *testing.T) {
	d := uncertainty.Default()
	m := JudgeModel(d, 0)
	assert.Equal(t, d.Replicas, m.Replicas)
	assert.Zero(t, m.SearchReplicas)
	assert.True(t, JudgeModel(uncertainty.Model{}, 0).Off(), "off stays off")
	m = JudgeModel(uncertainty.Model{}, 5)
	assert.Equal(t, 5, m.Replicas)
	assert.Equal(t, d.AllocationSpread, m.AllocationSpread, "the default perturbations")
	prob, err := NewProblem(objective.Workload{Name: "w", Profile: twoSites(t)}, heapsim.DefaultCost(), heapsim.DefaultParams(), d, 3, 7)
	require.NoError(t, err)
	assert.Equal(t, 3, prob.ReplicaCount())
	assert.Equal(t, uint64(7), prob.Settings().Seed)
}
