package main

import (
	"io"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
)

// TestLongCalibrationIsCurrent refits the cost model and checks that heapsim.DefaultCost is that
// fit: a change to the simulator or the DataFrame workloads that moves the fit must come with
// `go run ./heapsim/calibrate -write` (which also rewrites docs/calibration.md).
func TestLongCalibrationIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates the three DataFrame workloads")
	}
	scales, err := calibrate(io.Discard, false, 1)
	require.NoError(t, err)
	want := heapsim.PriorCost().Scaled(scales)
	got := heapsim.DefaultCost()
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(got)
	for i := range wv.NumField() {
		w, g := wv.Field(i).Float(), gv.Field(i).Float()
		require.LessOrEqual(t, math.Abs(w-g), 1e-4*math.Abs(w), "%s: fitted %g, DefaultCost %g: run go run ./heapsim/calibrate -write", wv.Type().Field(i).Name, w, g)
	}
}
