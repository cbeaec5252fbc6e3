package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/trialattr"
)

// TestPareto: the rows come fastest first, each with its speedup and footprint; the text ends
// with how to export one, the study's name quoted for a shell.
func TestPareto(t *testing.T) {
	slow := testTrial()
	fast := testTrial()
	fast.Number, fast.Value = 7, 288.0545
	fast.UserAttrs = map[string]string{trialattr.Feasible: "true", trialattr.Footprint: "2147483648"}
	rows := Pareto([]goptuna.FrozenTrial{slow, fast}, 576.109*2)
	require.Len(t, rows, 2)
	assert.Equal(t, []int{7, 113}, []int{rows[0].Trial, rows[1].Trial})
	assert.InDelta(t, 4.0, rows[0].Speedup, 1e-9)
	assert.Equal(t, uint64(2<<30), rows[0].PeakFootprintBytes)
	assert.Equal(t, 1.2, rows[1].Point.Proportion, "rounded as exported")

	var b bytes.Buffer
	require.NoError(t, WriteParetoText(&b, rows, "my study"))
	lines := strings.Split(b.String(), "\n")
	assert.Equal(t, "time-versus-footprint front: each trial is faster than every trial with a smaller footprint", lines[0])
	assert.Equal(t, " trial    speedup  peak footprint  configuration", lines[2])
	assert.True(t, strings.HasPrefix(lines[3], "     7      4.00x           2 GiB  new space (eden) size 979 MiB"), lines[3])
	assert.Equal(t, "export one with: gctune export 'my study' --trial N", lines[6])
}
