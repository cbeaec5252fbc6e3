package costfit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestCalibrate: the calibrated default run takes the measured wall and GC times, the cost file
// holds the fit, and the text states the three columns; a measurement the model cannot fit is
// a *FitError.
func TestCalibrate(t *testing.T) {
	p := bundled(t, "request-server")
	gc := 0.5
	m := Measured{WallSeconds: 4, GCSeconds: &gc}
	c, err := Calibrate(p, heapsim.DefaultParams(), heapsim.DefaultCost(), "built-in", m, "run.json")
	require.NoError(t, err)
	assert.Equal(t, p.Len(), c.Records)
	assert.InEpsilon(t, 4, c.Simulated.WallSeconds, 1e-6)
	assert.InEpsilon(t, 0.5, c.Simulated.GCSeconds, 1e-6)
	assert.Equal(t, c.BaseSimulated.Scavenges, c.Simulated.Scavenges, "the counts are not fitted")

	f, err := c.File("request-server", "v1")
	require.NoError(t, err)
	assert.Equal(t, "request-server", f.Profile)
	assert.Equal(t, "built-in", f.Base)
	cost, err := f.Cost()
	require.NoError(t, err)
	assert.Equal(t, c.Coefficients, cost)

	var b bytes.Buffer
	require.NoError(t, c.WriteText(&b, "request-server"))
	lines := strings.Split(b.String(), "\n")
	assert.Contains(t, lines[0], "request-server at the default GC parameters (656,639 records), measured: run.json")
	assert.Contains(t, b.String(), "scales against the built-in cost model")
	assert.Regexp(t, `wall time +4\.00 s +4\.00 s`, b.String())
	assert.Contains(t, b.String(), "scavenge time         —      103 ms", "— padded by runes")
	assert.Contains(t, b.String(), "-o FILE writes the calibrated cost model\n")
	c.Output, c.MeasuredFrom = "my cost.yaml", "a\nb"
	b.Reset()
	require.NoError(t, c.WriteText(&b, "request-server"))
	assert.Contains(t, b.String(), `measured: a\nb`, "a control character is escaped")
	assert.Contains(t, b.String(), "wrote my cost.yaml: use it with --cost my cost.yaml")

	gc = 5
	_, err = Calibrate(p, heapsim.DefaultParams(), heapsim.DefaultCost(), "built-in", Measured{WallSeconds: 4, GCSeconds: &gc}, "x")
	var fe *FitError
	require.True(t, errors.As(err, &fe), "%v", err)
}

// TestReadMeasured: a file is parsed; a missing one says "measured" and its path.
func TestReadMeasured(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"wallMs": 1500}`), 0o644))
	m, err := ReadMeasured(t.Context(), path)
	require.NoError(t, err)
	assert.InDelta(t, 1.5, m.WallSeconds, 1e-12)
	_, err = ReadMeasured(t.Context(), filepath.Join(dir, "missing.json"))
	require.ErrorContains(t, err, "measured open ")
	require.ErrorContains(t, err, "missing.json")
}

// TestCheckReplace: nothing there, a cost file and /dev/null may be replaced; another file, a
// large one included, may not.
func TestCheckReplace(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, CheckReplace(filepath.Join(dir, "new.yaml")))
	f, err := NewFile(heapsim.DefaultCost())
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteFile(&b, f))
	cost := filepath.Join(dir, "cost.yaml")
	require.NoError(t, os.WriteFile(cost, b.Bytes(), 0o644))
	require.NoError(t, CheckReplace(cost))
	if _, err := os.Stat(os.DevNull); err == nil {
		require.NoError(t, CheckReplace(os.DevNull))
	}
	notes := filepath.Join(dir, "notes.yaml")
	require.NoError(t, os.WriteFile(notes, []byte("mine: true\n"), 0o644))
	require.ErrorIs(t, CheckReplace(notes), ErrNotCostFile)
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("#\n"), maxFileHead), 0o644))
	require.ErrorIs(t, CheckReplace(big), ErrNotCostFile)
}
