package lifetimes

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/internal/profiletest"
	"github.com/gctune/gctune/profile"
)

func TestSummarizeSmallProfile(t *testing.T) {
	p := profiletest.Small(t)
	s, err := Summarize(p, AnalysisOptions{TopObjects: 3})
	require.NoError(t, err)

	assert.Equal(t, "test:small", s.Source)
	assert.Equal(t, "hand", s.Profiler)
	assert.Equal(t, 6, s.Records)
	assert.Equal(t, uint64(12), s.Objects)
	assert.Equal(t, uint64(600312), s.Bytes)
	assert.Equal(t, uint64(1000), s.EndBytes)
	assert.Equal(t, 1.0, s.SamplingRate)
	assert.Equal(t, profile.DefaultLongLivedThreshold, s.LongLivedThreshold)

	// Long-lived: Array (90 %), Fraction×2 (exactly 5 %), Big (50 %).
	assert.Equal(t, uint64(4), s.LongLivedObjects)
	assert.Equal(t, uint64(80+48+600000), s.LongLivedBytes)
	assert.InDelta(t, 4.0/12, s.LongLivedObjectShare, 1e-15)
	assert.InDelta(t, 600128.0/600312, s.LongLivedByteShare, 1e-15)
	assert.InDelta(t, (4*10+900+2*50+3*49+500+0)/12000.0, s.AverageLifetime, 1e-15)
	assert.Equal(t, uint64(1), s.AliveAtEndObjects)
	assert.Equal(t, uint64(80), s.AliveAtEndBytes)

	assert.Equal(t, uint64(600080), s.PeakLiveBytes)
	assert.Equal(t, uint64(400), s.PeakLiveAtBytes)
	assert.Equal(t, uint64(80), s.FinalLiveBytes)

	assert.Equal(t, OldSpaceAllocations{Records: 2, Objects: 2, Bytes: 600040, ByteShare: 600040.0 / 600312}, s.DirectToOld)
	assert.Equal(t, ContainerStats{Count: 1, TotalSlots: 9, TotalBytes: 80}, s.Containers)

	require.Len(t, s.Largest, 3)
	assert.Equal(t, LargeObject{Record: 4, Class: "Big", SizeBytes: 600000, Slots: 74998, Weight: 1,
		BirthBytes: 400, Lifetime: 0.5, OldSpace: true}, s.Largest[0])
	assert.Equal(t, LargeObject{Record: 1, Class: "Array", SizeBytes: 80, Slots: 9, Weight: 1,
		BirthBytes: 100, Lifetime: 0.9, AliveAtEnd: true}, s.Largest[1])
	assert.Equal(t, "Pinned", s.Largest[2].Class)
	assert.True(t, s.Largest[2].OldSpace)

	want := []ClassSummary{
		{Class: "Fraction", Records: 2, Objects: 6, Bytes: 144, AllocationShare: 0.5, ByteShare: 144.0 / 600312, AverageLifetime: 140.0 / 6000, LongLivedShare: 2.0 / 6},
		{Class: "ByteString", Records: 1, Objects: 3, Bytes: 48, AllocationShare: 0.25, ByteShare: 48.0 / 600312, AverageLifetime: 0.049, LongLivedShare: 0},
		{Class: "Big", Records: 1, Objects: 1, Bytes: 600000, AllocationShare: 1.0 / 12, ByteShare: 600000.0 / 600312, AverageLifetime: 0.5, LongLivedShare: 1},
		{Class: "Array", Records: 1, Objects: 1, Bytes: 80, AllocationShare: 1.0 / 12, ByteShare: 80.0 / 600312, AverageLifetime: 0.9, LongLivedShare: 1},
		{Class: "Pinned", Records: 1, Objects: 1, Bytes: 40, AllocationShare: 1.0 / 12, ByteShare: 40.0 / 600312, AverageLifetime: 0, LongLivedShare: 0},
	}
	require.Len(t, s.Classes, len(want))
	for i := range want {
		assert.Equal(t, want[i].Class, s.Classes[i].Class, "row %d", i)
		assert.Equal(t, want[i].Records, s.Classes[i].Records, want[i].Class)
		assert.Equal(t, want[i].Objects, s.Classes[i].Objects, want[i].Class)
		assert.Equal(t, want[i].Bytes, s.Classes[i].Bytes, want[i].Class)
		assert.InDelta(t, want[i].AllocationShare, s.Classes[i].AllocationShare, 1e-15, want[i].Class)
		assert.InDelta(t, want[i].ByteShare, s.Classes[i].ByteShare, 1e-15, want[i].Class)
		assert.InDelta(t, want[i].AverageLifetime, s.Classes[i].AverageLifetime, 1e-15, want[i].Class)
		assert.InDelta(t, want[i].LongLivedShare, s.Classes[i].LongLivedShare, 1e-15, want[i].Class)
	}

	_, err = json.Marshal(s)
	require.NoError(t, err)
}

func TestSummarizeThreshold(t *testing.T) {
	p := profiletest.Small(t)
	// Just above 5 %: the two Fractions living exactly 5 % drop out.
	s, err := Summarize(p, AnalysisOptions{LongLivedThreshold: 0.0501})
	require.NoError(t, err)
	assert.Equal(t, uint64(2), s.LongLivedObjects)
	// 4.9 %: the ByteStrings (49 bytes of 1000) come in.
	s, err = Summarize(p, AnalysisOptions{LongLivedThreshold: 0.049})
	require.NoError(t, err)
	assert.Equal(t, uint64(7), s.LongLivedObjects)
	// Threshold 1: only objects living the whole run, none here.
	s, err = Summarize(p, AnalysisOptions{LongLivedThreshold: 1})
	require.NoError(t, err)
	assert.Equal(t, uint64(0), s.LongLivedObjects)

	s, err = Summarize(p, AnalysisOptions{TopObjects: -1})
	require.NoError(t, err)
	assert.Empty(t, s.Largest)

	for _, bad := range []float64{-0.1, 1.5} {
		_, err := Summarize(p, AnalysisOptions{LongLivedThreshold: bad})
		assert.ErrorContains(t, err, "LongLivedThreshold")
	}
}

func TestSummarizeEdgeCases(t *testing.T) {
	var b profile.Builder
	p, err := b.Build(profile.Meta{Source: "empty"})
	require.NoError(t, err)
	s, err := Summarize(p, AnalysisOptions{})
	require.NoError(t, err)
	assert.Zero(t, s.Objects)
	assert.Zero(t, s.PeakLiveBytes)
	assert.Empty(t, s.Classes)
	_, err = json.Marshal(s)
	require.NoError(t, err, "no NaN in an empty summary")

	// A run of length zero: nothing is long-lived, nothing lives.
	var z profile.Builder
	z.Add(z.Class("X"), 16, 0, 0, 2, 0)
	p, err = z.Build(profile.Meta{Source: "zero"})
	require.NoError(t, err)
	s, err = Summarize(p, AnalysisOptions{})
	require.NoError(t, err)
	assert.Zero(t, s.LongLivedObjects)
	assert.Zero(t, s.AverageLifetime)
	assert.Zero(t, s.PeakLiveBytes)
	h, err := LifetimeHistogram(p, HistogramOptions{Bins: 4})
	require.NoError(t, err)
	assert.Equal(t, []uint64{2, 0, 0, 0}, h.Objects)

	_, err = Summarize(nil, AnalysisOptions{})
	assert.Error(t, err)
	bad := &profile.Profile{Birth: []uint64{1}}
	_, err = Summarize(bad, AnalysisOptions{})
	assert.ErrorIs(t, err, profile.ErrInvalidProfile)
}

func TestSummarizeLargestTies(t *testing.T) {
	var b profile.Builder
	c := b.Class("C")
	for i := range 6 {
		size := uint32(16)
		if i%2 == 1 {
			size = 32
		}
		b.Add(c, size, uint64(i), 10, 1, 0)
	}
	p, err := b.Build(profile.Meta{EndBytes: 10})
	require.NoError(t, err)
	s, err := Summarize(p, AnalysisOptions{TopObjects: 4})
	require.NoError(t, err)
	var recs []int
	for _, o := range s.Largest {
		recs = append(recs, o.Record)
	}
	assert.Equal(t, []int{1, 3, 5, 0}, recs, "largest first, ties earliest first")
}

func TestLifetimeHistogramLinear(t *testing.T) {
	p := profiletest.Small(t)
	h, err := LifetimeHistogram(p, HistogramOptions{Bins: 10})
	require.NoError(t, err)
	assert.Equal(t, LinearScale, h.Scale)
	assert.Equal(t, 10, h.Bins())
	require.Len(t, h.Edges, 11)
	assert.Equal(t, 0.0, h.Edges[0])
	assert.InDelta(t, 0.5, h.Edges[5], 1e-15)
	assert.Equal(t, 1.0, h.Edges[10])
	// Lifetimes 1 %, 90 %, 5 %, 4.9 %, 50 %, 0 %.
	assert.Equal(t, []uint64{10, 0, 0, 0, 0, 1, 0, 0, 0, 1}, h.Objects)
	assert.Equal(t, []uint64{232, 0, 0, 0, 0, 600000, 0, 0, 0, 80}, h.Bytes)
	assert.InDelta(t, 10.0/12, h.ObjectShare[0], 1e-15)
	assert.InDelta(t, 80.0/600312, h.ByteShare[9], 1e-15)
}

func TestLifetimeHistogramLog(t *testing.T) {
	p := profiletest.Small(t)
	h, err := LifetimeHistogram(p, HistogramOptions{Bins: 4, Scale: LogScale, LogMin: 1e-3})
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 1e-3, 1e-2, 1e-1, 1}, h.Edges)
	// Bins [0, 1‰), [1‰, 1 %), [1 %, 10 %), [10 %, 100 %]: 0 %; none; 1 %, 4.9 %, 5 %; 50 %, 90 %.
	assert.Equal(t, []uint64{1, 0, 9, 2}, h.Objects)
	assert.Equal(t, []uint64{40, 0, 96 + 48 + 48, 600080}, h.Bytes)

	h, err = LifetimeHistogram(p, HistogramOptions{Scale: LogScale})
	require.NoError(t, err)
	assert.Equal(t, DefaultHistogramBins, h.Bins())
	assert.Equal(t, DefaultLogHistogramMin, h.Edges[1])
	var sum float64
	for _, s := range h.ObjectShare {
		sum += s
	}
	assert.InDelta(t, 1, sum, 1e-12)

	for _, bad := range []HistogramOptions{{Bins: -1}, {Bins: 1, Scale: LogScale}, {Scale: "cubic"}, {LogMin: 1}, {Bins: 1001}} {
		_, err := LifetimeHistogram(p, bad)
		assert.Error(t, err, "%+v", bad)
	}
}

// randomProfile builds n records with bimodal lifetimes, some alive at the end.
func randomProfile(t testing.TB, seed uint64, n int) *profile.Profile {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	var b profile.Builder
	b.Grow(n)
	classes := []uint32{b.Class("A"), b.Class("B"), b.Class("C")}
	end := uint64(n) * 40
	var clock uint64
	for range n {
		size := uint32(16 + 8*r.IntN(8))
		clock += uint64(r.IntN(80))
		birth := min(clock, end)
		var death uint64
		var flags uint8
		switch k := r.IntN(10); {
		case k < 7:
			death = birth + uint64(r.IntN(200))
		case k < 9:
			death = birth + uint64(r.Float64()*float64(end-birth))
		default:
			death, flags = end, profile.FlagAliveAtEnd
		}
		death = min(death, end)
		b.Add(classes[r.IntN(len(classes))], size, birth, death, uint32(1+r.IntN(3)), flags)
	}
	p, err := b.Build(profile.Meta{Source: fmt.Sprintf("random:%d", seed), EndBytes: end})
	require.NoError(t, err)
	return p
}

// naiveLive sorts every event and sweeps them: the reference for liveBytes.
func naiveLive(p *profile.Profile) (peak, peakAt, final uint64) {
	type ev struct {
		t     uint64
		delta int64
	}
	var evs []ev
	for i := range p.Len() {
		w := int64(p.Weight[i]) * int64(p.SizeBytes[i])
		evs = append(evs, ev{p.Birth[i], w})
		if p.AliveAtEnd(i) {
			final += uint64(w)
		} else {
			evs = append(evs, ev{p.Death[i], -w})
		}
	}
	slices.SortStableFunc(evs, func(a, b ev) int { return cmp.Compare(a.t, b.t) })
	var live int64
	for i, e := range evs {
		live += e.delta
		if (i+1 == len(evs) || evs[i+1].t != e.t) && uint64(live) > peak {
			peak, peakAt = uint64(live), e.t
		}
	}
	return peak, peakAt, final
}

func TestLiveBytesMatchesNaiveSweep(t *testing.T) {
	for seed := range uint64(30) {
		n := 1 + int(seed)*97
		p := randomProfile(t, seed, n)
		peak, at, final := liveBytes(p)
		wp, wat, wf := naiveLive(p)
		assert.Equal(t, wp, peak, "seed %d peak", seed)
		assert.Equal(t, wat, at, "seed %d peak time", seed)
		assert.Equal(t, wf, final, "seed %d final", seed)
	}
}

func TestLiveBytesFlatPlateau(t *testing.T) {
	// Every object dies exactly when the next is born: the live curve is flat, so every bucket
	// is refined. The peak is the first object's size, first reached at 0.
	var b profile.Builder
	c := b.Class("C")
	for i := range uint64(1000) {
		b.Add(c, 32, i*10, i*10+10, 1, 0)
	}
	p, err := b.Build(profile.Meta{EndBytes: 10000})
	require.NoError(t, err)
	peak, at, final := liveBytes(p)
	assert.Equal(t, uint64(32), peak)
	assert.Equal(t, uint64(0), at)
	assert.Equal(t, uint64(0), final)
}

// BenchmarkSummarize measures Summarize and LifetimeHistogram over 10 M records (about 290 MB
// of profile): go test -run XXX -bench Summarize -benchmem ./lifetimes
func BenchmarkSummarize(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000, 10_000_000} {
		p := benchProfile(n)
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Summarize(p, AnalysisOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("histogram/records=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := LifetimeHistogram(p, HistogramOptions{Scale: LogScale}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchProfile builds a DataFrame-like profile directly (85 % of objects die at once, 15 %
// live to the end), without the Builder's copies.
func benchProfile(n int) *profile.Profile {
	r := rand.New(rand.NewPCG(42, 42))
	p := &profile.Profile{
		ClassNames: []string{"Fraction", "NumberParser", "ReadStream", "ByteString", "Array"},
		Class:      make([]uint32, n),
		SizeBytes:  make([]uint32, n),
		Birth:      make([]uint64, n),
		Death:      make([]uint64, n),
		Weight:     make([]uint32, n),
		Flags:      make([]uint8, n),
	}
	var clock uint64
	for i := range n {
		c := uint32(r.IntN(5))
		size := uint32(16 + 8*r.IntN(10))
		p.Class[i], p.SizeBytes[i], p.Birth[i], p.Weight[i] = c, size, clock, 1
		clock += uint64(size)
	}
	end := clock
	for i := range n {
		if r.IntN(100) < 85 {
			p.Death[i] = min(p.Birth[i]+uint64(r.IntN(4096)), end)
		} else {
			p.Death[i], p.Flags[i] = end, profile.FlagAliveAtEnd
		}
	}
	p.Meta = profile.Meta{Source: "bench", EndBytes: end, TotalAllocatedBytes: end, SamplingRate: 1}
	return p
}

func TestLiveCurveMatchesBruteForce(t *testing.T) {
	b := &profile.Builder{}
	c := b.Class("C")
	// Size, birth, death, weight; one alive at the end; a death exactly on a sample time.
	b.Add(c, 16, 0, 10, 1, 0)
	b.Add(c, 32, 5, 50, 2, 0)
	b.Add(c, 64, 20, 21, 1, 0)
	b.Add(c, 8, 40, 100, 3, profile.FlagAliveAtEnd)
	p, err := b.Build(profile.Meta{Source: "test", EndBytes: 100, TotalAllocatedBytes: 168, SamplingRate: 1})
	require.NoError(t, err)
	clocks, live, err := LiveCurve(p, 10)
	require.NoError(t, err)
	require.Len(t, clocks, 11)
	require.Equal(t, p.Meta.EndBytes, clocks[10])
	for k, c := range clocks {
		var want uint64
		for i := range p.Len() {
			if p.Birth[i] <= c && (p.Flags[i]&profile.FlagAliveAtEnd != 0 || c < p.Death[i]) {
				want += uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
			}
		}
		require.Equal(t, want, live[k], "clock %d", c)
	}
	_, _, err = LiveCurve(p, 0)
	require.Error(t, err)
}
