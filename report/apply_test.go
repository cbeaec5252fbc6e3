package report

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/tunable"
)

// TestBuildApply: the report is on the recommendation, and its Apply section says how to apply
// exactly that: the launch flag when the new space changes, one statement per runtime
// parameter it sets, a row per parameter set, and the whole script.
func TestBuildApply(t *testing.T) {
	r := newTestReport(t)
	require.NotNil(t, r.Recommendation)
	require.NotNil(t, r.Apply)
	rec, a := r.Recommendation, r.Apply
	assert.Equal(t, rec.Trial, r.Search.Best.Number)
	assert.Equal(t, rec.Point, r.Search.Best.Point)
	assert.Equal(t, rec.KeepDefaults, a.KeepDefaults)
	assert.True(t, strings.HasPrefix(a.Script, `"gctune: GC parameters for`), a.Script)
	// The command that writes the script names the study, quoted for the shell.
	assert.Equal(t, "gctune export 'fixture <study>' --format st", a.ExportCommand)
	if a.KeepDefaults {
		assert.Empty(t, a.Statements)
		assert.Empty(t, a.LaunchFlag)
		return
	}
	assert.Equal(t, rec.Changed(tunable.ParamNewSpace), a.LaunchFlag != "")
	runtime := 0
	for _, p := range []string{tunable.ParamHeadroom, tunable.ParamShrink, tunable.ParamRatio, tunable.ParamProportion} {
		if rec.Changed(p) {
			runtime++
		}
	}
	assert.Len(t, a.Statements, runtime)
	assert.Len(t, a.Rows, 5-len(rec.AtDefault))
	for _, st := range a.Statements {
		assert.Contains(t, a.Script, st, "the statements are the script's")
	}
}

// TestBuildTrialAsIs: --trial N reports on trial N with all five parameters set, and no
// recommendation.
func TestBuildTrialAsIs(t *testing.T) {
	prob := testProblem(t, 0, "cache-churn")
	space := tunable.DefaultSpace()
	trials := testTrials(t, prob, space, 4)
	r, err := Build(context.Background(), Input{Study: "s", Problem: prob, Space: space, Trials: trials, Trial: 2},
		Options{SweepPoints: 3, Workers: 2})
	require.NoError(t, err)
	assert.Nil(t, r.Recommendation)
	assert.Equal(t, 2, r.Search.Best.Number)
	assert.Len(t, r.Apply.Rows, 5)
	assert.Len(t, r.Apply.Statements, 4)
	assert.NotEmpty(t, r.Apply.LaunchFlag)
	assert.Equal(t, "gctune export s --format st --trial 2", r.Apply.ExportCommand)
	assert.Equal(t, "Trial 2", htmlConfigHeading(r, true))
}

// TestApplyOnThePage: the page gives the study's own export command, not a placeholder, and
// heads the configuration's column with what it is.
func TestApplyOnThePage(t *testing.T) {
	r := newTestReport(t)
	var page bytes.Buffer
	require.NoError(t, WriteHTML(&page, r, nil))
	s := page.String()
	if !r.Apply.KeepDefaults {
		assert.Contains(t, s, "<code>gctune export &#39;fixture &lt;study&gt;&#39; --format st</code> writes it")
	}
	assert.NotContains(t, s, "STUDY")
	assert.NotContains(t, s, ">Reported<")
	assert.Contains(t, s, fmt.Sprintf(`<th class="num">Recommended (trial %d)</th>`, r.Recommendation.Trial))
}
