package report

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/verify"
)

func TestMeasuredFrom(t *testing.T) {
	assert.Nil(t, MeasuredFrom(nil))
	old, cur := "20260101T000000.000000000Z-1", "20260102T000000.000000000Z-1"
	runs := []verify.MeasuredRun{
		{Session: old, Config: "default", Trial: -1, Round: 0, WallSeconds: 9},
		{Session: cur, Config: "default", Trial: -1, Round: -1, WallSeconds: 5, PredictedSpeedup: 1},
		{Session: cur, Config: "best", Trial: 4, Round: -1, WallSeconds: 5, PredictedSpeedup: 2.5},
		{Session: cur, Config: "default", Trial: -1, Round: 0, WallSeconds: 3, PredictedSpeedup: 1, Stats: json.RawMessage(`{"wallMs":2900,"gcMs":2000}`)},
		{Session: cur, Config: "best", Trial: 4, Round: 0, WallSeconds: 1, PredictedSpeedup: 2.5},
		{Session: cur, Config: "best", Trial: 4, Round: 1, WallSeconds: 1.1, PredictedSpeedup: 2.5},
		{Session: cur, Config: "default", Trial: -1, Round: 1, WallSeconds: 3.3, PredictedSpeedup: 1},
		{Session: cur, Config: "default", Trial: -1, Round: 2, WallSeconds: 7, ExitCode: 2, Error: "exit code 2"},
	}
	m := MeasuredFrom(runs)
	require.NotNil(t, m)
	assert.Equal(t, cur, m.Session, "the latest session")
	assert.Equal(t, 1, m.Failed)
	require.Len(t, m.Configs, 2)
	assert.Equal(t, []float64{3, 3.3}, m.Configs[0].WallSeconds, "measured runs only, in order: no warm-up, no failure")
	assert.Equal(t, []float64{1, 1.1}, m.Configs[1].WallSeconds)
	assert.Nil(t, m.Configs[0].Stats, "not every default run printed stats")
	sp := m.Configs[1].Speedup
	require.NotNil(t, sp)
	assert.Equal(t, 2, sp.Pairs)
	assert.InDelta(t, 3.0, sp.Estimate, 1e-9, "sqrt(3/1 · 3.3/1.1)")
	assert.Equal(t, 2.5, m.Configs[1].PredictedSpeedup)

	p := &htmlPage{TOC: []htmlTOCEntry{{htmlIDConfiguration, "Best configuration"}, {htmlIDDiagnosis, "Diagnosis"}}}
	htmlMeasuredSection(p, &Report{Measured: m}, func(id, _ string) string { return id })
	require.NotNil(t, p.Measured)
	assert.Equal(t, htmlIDMeasured, p.TOC[1].ID)
	assert.Equal(t, htmlIDDiagnosis, p.TOC[2].ID)
	require.Len(t, p.Measured.Rows, 2)
	assert.Equal(t, "best (trial 4)", p.Measured.Rows[1].Name)
	assert.Contains(t, p.Measured.Rows[1].Measured, "[")
	assert.Equal(t, "1 run of the session failed (exit code or timeout): not counted.", p.Measured.Notes[0])
}
