package filip

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFiLiPAbsoluteMicros(t *testing.T) {
	// Pharo's UTC microsecond clock in the current layout, which stamps bytes: the era decides
	// (bytes) and says the timestamps look like microseconds; forced to us, 1 % sampling gives
	// weight 100. Birth instants t0 and t0+1000 carry 2400 and 2 × 2400 bytes; the death at
	// t0+500 interpolates halfway, to 4800.
	t0 := uint64(3912345678900000)
	csv := fmt.Sprintf("%s\n%d,24,%d,A,0,0,m,1\n%d,24,%d,B,0,0,m,1\n%d,24,%d,C,0,0,m,1\n", filipHeader8,
		t0+500, t0, t0+2000, t0+1000, t0+9000, t0+1000)
	_, rep, err := ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(`{"samplingRate":0.01,"profiler":"FiLiP"}`), Options{})
	require.NoError(t, err)
	assert.Equal(t, ClockBytes, rep.Clock)
	require.Len(t, rep.Warnings, 1)
	assert.Contains(t, rep.Warnings[0], "look like Pharo's absolute UTC microsecond clock, although this era stamps bytes allocated: --clock us if they are microseconds")
	p, rep, err := ReadFrom(strings.NewReader(csv), "d.csv", strings.NewReader(`{"samplingRate":0.01}`), Options{Clock: ClockMicros})
	require.NoError(t, err)
	assert.Equal(t, ClockMicros, rep.Clock)
	assert.Equal(t, []wantRec{{"A", 24, 2400, 4800, false}, {"B", 24, 7200, 7200, false}, {"C", 24, 7200, 7200, true}}, profileRecs(p))
	assert.Equal(t, uint64(7200), p.Meta.EndBytes)
}

func TestFiLiPDetectEra(t *testing.T) {
	utc := func(d float64) float64 { return 3.932e15 + d }
	for _, tt := range []struct {
		name    string
		ev      eraEvidence
		clock   Clock
		era     string
		reason  string
		warning string
	}{
		{"layout alone", eraEvidence{layout: LayoutCurrent, minTime: 10, maxTime: 20}, ClockBytes, "FiLiP", "layout textualAllocatorMethod: bytes", ""},
		{"7 columns, no metadata", eraEvidence{layout: LayoutForcedFinalization, minTime: utc(0), maxTime: utc(9)}, ClockMicros,
			"v1.0-v1.1", "layout forcedFinalization: microseconds", ""},
		{"7 columns, small timestamps", eraEvidence{layout: LayoutForcedFinalization, minTime: 100, maxTime: 900}, ClockMicros,
			"v1.0-v1.1", "microseconds", "are not Pharo's absolute UTC microsecond clock, which this era stamped: edited? --clock bytes"},
		{"profiler that never wrote the layout", eraEvidence{layout: LayoutCurrent, profiler: "IllMemoryProfiler", minTime: 1, maxTime: 2}, ClockBytes,
			"FiLiP", "layout textualAllocatorMethod: bytes", `profiler "IllMemoryProfiler" never wrote layout textualAllocatorMethod`},
		{"sampligRate with a late layout", eraEvidence{layout: LayoutAllocatorMethod, sampligRate: true, minTime: 1, maxTime: 2}, ClockBytes,
			"v1.2", "bytes", "the metadata key sampligRate (written until 2024-03-13) does not go with layout allocatorMethod"},
		{"ambiguous, no profiler, UTC microseconds", eraEvidence{layout: LayoutForcedAllocationSite, minTime: utc(0), maxTime: utc(5)}, ClockMicros,
			"(4dcd239) or Illimani development 2024-08-21 (5f26563", "were written on both clocks; the timestamps (3.932e+15 to 3.932e+15) lie in the band", ""},
		{"ambiguous, no profiler, bytes", eraEvidence{layout: LayoutForcedAllocationSite, minTime: 5e9, maxTime: 6e9}, ClockBytes,
			"395d06e", "are not Pharo's absolute UTC microsecond clock", ""},
		{"ambiguous layout, profiler decides", eraEvidence{layout: LayoutForcedAllocationSite, profiler: "IllObjectLifetimesProfiler", minTime: 5e9, maxTime: 6e9}, ClockMicros,
			"4dcd239", "profiler IllObjectLifetimesProfiler: microseconds", "are not Pharo's absolute UTC microsecond clock"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := detectEra(tt.ev)
			assert.Equal(t, tt.clock, d.clock)
			assert.Contains(t, d.era, tt.era)
			assert.Contains(t, d.reason, tt.reason)
			if tt.warning == "" {
				assert.Empty(t, d.warnings)
			} else {
				require.Len(t, d.warnings, 1)
				assert.Contains(t, d.warnings[0], tt.warning)
			}
		})
	}
	// Every era is reachable from its own evidence, on its own clock.
	for _, e := range filipEras {
		ev := eraEvidence{layout: e.layout, oldSpelling: e.oldSpelling, profiler: e.profilers[0], minTime: 5e9, maxTime: 6e9}
		if e.clock == ClockMicros {
			ev.minTime, ev.maxTime = utc(0), utc(1)
		}
		d := detectEra(ev)
		assert.Equal(t, e.clock, d.clock, e.name)
		assert.Contains(t, d.era, e.name)
	}
}
