package simulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/heapsim/eventlog"
	"github.com/gctune/gctune/profile/source"
)

func openSmall(t *testing.T, ref string) (*source.Info, source.Options, func() *Report) {
	t.Helper()
	open := source.Options{Seed: 1, Resolution: 1e-3}
	p, info, err := source.Open(ref, open)
	require.NoError(t, err)
	return info, open, func() *Report {
		given := heapsim.DefaultParams()
		given.NewSpaceBytes = 32 << 20
		r, err := Simulate(p, info, open, Options{Given: given, Default: heapsim.DefaultParams(), Cost: heapsim.DefaultCost()})
		require.NoError(t, err)
		return r
	}
}

func TestSimulateReportAndText(t *testing.T) {
	_, _, run := openSmall(t, "request-server")
	r := run()
	assert.Equal(t, "request-server", r.Input.Ref)
	assert.Equal(t, uint64(32<<20), r.Given.Params.NewSpaceBytes)
	assert.Empty(t, r.Default.Error)
	require.Positive(t, r.Given.Stats.TotalSeconds)
	assert.Equal(t, r.Default.Stats.TotalSeconds/r.Given.Stats.TotalSeconds, r.Speedup)
	assert.Equal(t, r.Given.Params.SurvivorsToKeep(), r.Given.Survivors)

	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	lines := strings.Split(b.String(), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "request-server: "), lines[0])
	assert.Contains(t, b.String(), "new space (eden) size (param 45)")
	assert.Contains(t, b.String(), "\nspeedup: ")
	assert.NotContains(t, b.String(), "event log:")
	// The table's columns end where the header's do.
	header := lines[2]
	for _, l := range lines[3:8] {
		assert.Equal(t, len([]rune(header)), len([]rune(l)), "%q", l)
	}
}

func TestSimulateEventsAndPretenure(t *testing.T) {
	p, info, err := source.Open("request-server", source.Options{Seed: 1, Resolution: 1e-3})
	require.NoError(t, err)
	o := Options{Given: heapsim.DefaultParams(), Default: heapsim.DefaultParams(), Cost: heapsim.DefaultCost()}

	var log bytes.Buffer
	o.Events = func(write func(io.Writer) error) error { return write(&log) }
	_, err = Simulate(p, info, source.Options{}, o)
	require.NoError(t, err)
	rows := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	assert.Equal(t, strings.Join(eventlog.Header(), ","), rows[0])
	assert.Greater(t, len(rows), 1, "the given run's events")

	boom := errors.New("disk full")
	o.Events = func(func(io.Writer) error) error { return boom }
	_, err = Simulate(p, info, source.Options{}, o)
	var el *EventLogError
	require.ErrorAs(t, err, &el)
	assert.ErrorIs(t, err, boom)

	o.Events = nil
	o.Pretenure = []string{"Foo>>#bar"}
	_, err = Simulate(p, info, source.Options{}, o)
	assert.ErrorIs(t, err, ErrInput, "request-server names no sites")
	assert.ErrorContains(t, err, "names no allocation sites")

	d, _, err := source.Open("dataframe-500mb", source.Options{Seed: 1, Resolution: 1e-2})
	require.NoError(t, err)
	_, _, err = Pretenure(d, []string{"Nope>>#x"})
	assert.ErrorIs(t, err, ErrInput)
	q, pr, err := Pretenure(d, []string{"DataFrameInternal>>#asArrayOfColumns", "DataFrameInternal>>#asArrayOfColumns"})
	require.NoError(t, err)
	require.NotNil(t, q)
	assert.Equal(t, []string{"DataFrameInternal>>#asArrayOfColumns"}, pr.Sites, "a site named twice counts once")
	assert.Positive(t, pr.Records)
	assert.Contains(t, pr.Line(), `"DataFrameInternal>>#asArrayOfColumns" (`)
}

func TestBatch(t *testing.T) {
	p, _, err := source.Open("request-server", source.Options{Seed: 1, Resolution: 1e-3})
	require.NoError(t, err)
	in := "{\"eden\":\"32MiB\"}\n\n{\"eden\":1,\"eden\":2}\n" + `{"ratio":"x"}` + "\n" + strings.Repeat(" ", MaxBatchLineBytes+1) + "\nnot json"
	var out bytes.Buffer
	started := 0
	require.NoError(t, Batch(strings.NewReader(in), &out, p, BatchOptions{Ref: "request-server", Given: heapsim.DefaultParams(),
		Default: heapsim.DefaultParams(), Cost: heapsim.DefaultCost(), Started: func() { started++ }}))
	assert.Equal(t, 1, started)
	var rs []BatchResult
	dec := json.NewDecoder(&out)
	for dec.More() {
		var r BatchResult
		require.NoError(t, dec.Decode(&r))
		rs = append(rs, r)
	}
	require.Len(t, rs, 5, "the blank line is skipped")
	assert.Equal(t, 1, rs[0].Line)
	require.NotNil(t, rs[0].Params)
	assert.Equal(t, uint64(32<<20), rs[0].Params.NewSpaceBytes)
	assert.Positive(t, rs[0].Speedup)
	assert.Equal(t, []int{3, 4, 5, 6}, []int{rs[1].Line, rs[2].Line, rs[3].Line, rs[4].Line}, "blank lines are counted")
	assert.Equal(t, `line 3: key "eden" given twice`, rs[1].Error)
	assert.Equal(t, `line 4: ratio "x": want a number`, rs[2].Error)
	assert.Contains(t, rs[3].Error, "longer than")
	assert.Contains(t, rs[4].Error, "line 6: invalid character")
}
