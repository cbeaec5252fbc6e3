package spec

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile"
)

// genSpec parses a spec for a generator test.
func genSpec(t testing.TB, src string) *Spec {
	t.Helper()
	s, err := Parse([]byte(src), "test.yaml")
	require.NoError(t, err)
	return s
}

// oneLifetimeSpec is a spec of one phase that allocates allocate (a byte count) of 64-byte
// objects of one class, all with lifetime life, at resolution 0.1.
func oneLifetimeSpec(t testing.TB, allocate, life string) *Spec {
	t.Helper()
	return genSpec(t, `name: one
resolution: 0.1
classes: [{name: A, size: 64}]
phases:
  - name: p
    allocate: `+allocate+`
    mix: [{class: A, share: 1, lifetime: `+life+`}]
`)
}

// genLongLived returns the shares of objects and of bytes (weighted) whose lifetime is at
// least threshold × EndBytes: gctune's definition of long-lived, written out here rather than
// taken from the analysis code.
func genLongLived(p *profile.Profile, threshold float64) (objects, bytes float64) {
	limit := threshold * float64(p.Meta.EndBytes)
	var n, b, ln, lb float64
	for i := range p.Birth {
		w := float64(p.Weight[i])
		sz := w * float64(p.SizeBytes[i])
		n += w
		b += sz
		if float64(p.Death[i]-p.Birth[i]) >= limit {
			ln += w
			lb += sz
		}
	}
	return ln / n, lb / b
}

// genPhaseBounds returns each phase's [start, end) on the clock as the generator plans it.
func genPhaseBounds(t testing.TB, s *Spec, opts GenerateOptions) [][2]uint64 {
	t.Helper()
	g, err := newGenPlan(s, opts)
	require.NoError(t, err)
	out := make([][2]uint64, len(g.phases))
	for i, ph := range g.phases {
		out[i] = [2]uint64{ph.startBytes, ph.endBytes}
	}
	return out
}

func TestGenerateDeterministic(t *testing.T) {
	for _, name := range []string{"request-server", "cache-churn", "compiler-phases", "image-processing"} {
		t.Run(name, func(t *testing.T) {
			s, err := BundledSpec(name)
			require.NoError(t, err)
			opts := GenerateOptions{Seed: 42, Resolution: 0.002}
			a, err := s.Generate(opts)
			require.NoError(t, err)
			b, err := s.Generate(opts)
			require.NoError(t, err)
			assert.Equal(t, a, b, "same spec, seed and resolution must give identical profiles")
			// A spec parsed again gives the same profile too (no state in the Spec).
			s2, err := BundledSpec(name)
			require.NoError(t, err)
			c, err := s2.Generate(opts)
			require.NoError(t, err)
			assert.Equal(t, a, c)
			opts.Seed = 43
			d, err := s.Generate(opts)
			require.NoError(t, err)
			assert.NotEqual(t, a.Birth, d.Birth, "another seed must give another profile")
		})
	}
}

// TestGeneratePhaseIndependence checks that the generator's streams are independent: changing
// lifetimes moves no birth or size, and changing the second phase's sizes leaves the first
// phase's records as they were.
func TestGeneratePhaseIndependence(t *testing.T) {
	src := `name: two
classes: [{name: A, size: {dist: lognormal, median: 40, sigma: 0.5}}]
phases:
  - name: one
    allocate: 1MB
    mix: [{class: A, share: 1, lifetime: {dist: exponential, mean: 10KB}}]
  - name: two
    allocate: 1MB
    mix: [{class: A, share: 1, lifetime: {dist: exponential, mean: 10KB}}]
`
	a, err := genSpec(t, src).Generate(GenerateOptions{Seed: 7})
	require.NoError(t, err)
	b, err := genSpec(t, strings.Replace(src, "mean: 10KB}}]\n", "mean: 99KB}}]\n", 2)).Generate(GenerateOptions{Seed: 7})
	require.NoError(t, err)
	assert.Equal(t, a.Birth, b.Birth, "lifetimes changed: same births")
	assert.Equal(t, a.SizeBytes, b.SizeBytes, "lifetimes changed: same sizes")
	assert.NotEqual(t, a.Death, b.Death)

	// The second phase's objects get another size: the first phase does not move.
	i := strings.LastIndex(src, "share: 1, ")
	c, err := genSpec(t, src[:i]+"share: 1, size: 200, "+src[i+len("share: 1, "):]).Generate(GenerateOptions{Seed: 7})
	require.NoError(t, err)
	n := sort.Search(a.Len(), func(i int) bool { return a.Birth[i] >= 1_000_000 })
	require.Positive(t, n)
	assert.Equal(t, a.Birth[:n], c.Birth[:n], "first phase unchanged")
	assert.Equal(t, a.Death[:n], c.Death[:n], "first phase unchanged")
	assert.NotEqual(t, a.Len(), c.Len(), "second phase changed")
}

func TestGenerateClock(t *testing.T) {
	s := genSpec(t, specBase)
	p, err := s.Generate(GenerateOptions{Seed: 1})
	require.NoError(t, err)
	require.NoError(t, p.Validate())
	assert.Equal(t, uint32(2), p.Weight[0], "weight = round(1/0.5)")
	// Births are the running total of weighted bytes, phase by phase.
	bounds := genPhaseBounds(t, s, GenerateOptions{Seed: 1})
	var clock uint64
	phase := 0
	for i := range p.Birth {
		for phase+1 < len(bounds) && p.Birth[i] >= bounds[phase+1][0] {
			phase++
			require.LessOrEqual(t, clock, bounds[phase][0])
			clock = bounds[phase][0]
		}
		require.Equal(t, clock, p.Birth[i], "record %d", i)
		clock += uint64(p.Weight[i]) * uint64(p.SizeBytes[i])
	}
	assert.LessOrEqual(t, clock, p.Meta.EndBytes)
	assert.Equal(t, bounds[len(bounds)-1][1], p.Meta.EndBytes)
	assert.InDelta(t, float64(p.Meta.TotalAllocatedBytes), p.WeightedBytes(), 0.5)
	// The mix fills each phase's allocation to within one record.
	assert.InDelta(t, 1_000_000, float64(bounds[0][1]-bounds[0][0]), 2*4096)
	// Phase two: 512 KiB of mix, two 1 MiB large objects, one 100,000-slot container.
	assert.Equal(t, uint64(512<<10+2<<20+800_016), bounds[1][1]-bounds[1][0])
	assert.Equal(t, ProfilerSpec, p.Meta.Profiler)
	assert.Equal(t, 0.5, p.Meta.SamplingRate)
}

func TestGenerateMeta(t *testing.T) {
	s, err := BundledSpec("dataframe-500mb")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Seed: 1, Resolution: 0.001})
	require.NoError(t, err)
	assert.Equal(t, "workload:dataframe-500mb", p.Meta.Source)
	assert.Equal(t, 266, p.Meta.ReportedScavenges)
	assert.Equal(t, 18, p.Meta.ReportedFullGCs)
	assert.Equal(t, 71.0, p.Meta.RunSeconds)
	assert.Equal(t, 0.001, p.Meta.SamplingRate)
	assert.Equal(t, []string{"ByteString", "Array", "NumberParser", "ReadStream"}, p.ClassNames, "class table in declaration order")
}

func TestGenerateShares(t *testing.T) {
	s := genSpec(t, `name: shares
resolution: 0.01
classes:
  - {name: A, size: 16}
  - {name: B, size: {dist: uniform, min: 16, max: 1KiB}}
  - {name: C, size: {dist: choice, values: [32, 64, 4096], weights: [5, 4, 1]}}
phases:
  - name: p
    allocate: 2GB
    mix:
      - {class: A, share: 0.6, lifetime: immediate}
      - {class: B, share: 0.3, lifetime: immediate}
      - {class: C, share: 0.1, lifetime: immediate, resolution: 0.05}
`)
	p, err := s.Generate(GenerateOptions{Seed: 5})
	require.NoError(t, err)
	count := map[string]float64{}
	records := map[string]int{}
	bytes := map[string]float64{}
	total := 0.0
	for i := range p.Birth {
		c := p.ClassName(i)
		w := float64(p.Weight[i])
		count[c] += w
		records[c]++
		bytes[c] += w * float64(p.SizeBytes[i])
		total += w
		if p.SizeBytes[i]%8 != 0 || p.SizeBytes[i] < 16 {
			t.Fatalf("record %d: size %d is not a whole number of 8-byte units ≥ 16", i, p.SizeBytes[i])
		}
		if want := map[bool]uint32{true: 20, false: 100}[c == "C"]; p.Weight[i] != want {
			t.Fatalf("record %d (%s): weight %d, want %d (C is sampled at its own resolution)", i, c, p.Weight[i], want)
		}
	}
	assert.InDelta(t, 0.6, count["A"]/total, 0.005)
	assert.InDelta(t, 0.3, count["B"]/total, 0.005)
	assert.InDelta(t, 0.1, count["C"]/total, 0.005)
	assert.InDelta(t, 5, float64(records["C"])/float64(records["A"])/(0.1/0.6), 0.3, "C has 5 × the records per object")
	// Uniform sizes between 16 and 1024, rounded up to 8: mean ≈ 524.
	assert.InDelta(t, 524, bytes["B"]/count["B"], 5)
	// Choice: (5×32 + 4×64 + 4096)/10 = 451.2.
	assert.InDelta(t, 451.2, bytes["C"]/count["C"], 25) // ±4.4 standard errors over ~47,000 records
	assert.InDelta(t, s.EstimateRecords(0), float64(p.Len()), 0.01*float64(p.Len()))
}

func TestGenerateLifetimeDistributions(t *testing.T) {
	s := genSpec(t, `name: lifetimes
resolution: 0.1
classes: [{name: A, size: 64}]
phases:
  - name: first
    allocate: 100MB
    mix:
      - {class: A, share: 0.2, lifetime: {dist: exponential, mean: 1MB}}
      - {class: A, share: 0.2, lifetime: {dist: fixed, value: 3MB}}
      - {class: A, share: 0.2, lifetime: {dist: uniform, min: 1MB, max: 2MB}}
      - {class: A, share: 0.2, lifetime: {dist: lognormal, median: 100KB, sigma: 1, max: 10MB}}
      - {class: A, share: 0.2, lifetime: {dist: gamma, mean: 500KB, shape: 2}}
  - name: second
    allocate: 100MB
    mix:
      - {class: A, share: 0.25, lifetime: {dist: uniform}}
      - {class: A, share: 0.25, lifetime: {dist: fraction-of-run, fraction: 0.1}}
      - {class: A, share: 0.25, lifetime: until-phase-end}
      - {class: A, share: 0.25, lifetime: {dist: weibull, scale: 1MB, shape: 1.5}}
`)
	// Every record of the first phase has a lifetime drawn from one of five distributions; the
	// entries are told apart by drawing them one at a time instead.
	for _, c := range []struct {
		life     string
		mean     float64 // expected mean lifetime in bytes
		tol      float64 // relative
		min, max float64
	}{
		{"{dist: exponential, mean: 1MB}", 1e6, 0.02, 0, math.Inf(1)},
		{"{dist: fixed, value: 3MB}", 3e6, 1e-9, 3e6, 3e6},
		{"{dist: uniform, min: 1MB, max: 2MB}", 1.5e6, 0.01, 1e6, 2e6},
		{"{dist: lognormal, median: 100KB, sigma: 1}", 1e5 * math.Exp(0.5), 0.03, 0, math.Inf(1)},
		{"{dist: gamma, mean: 500KB, shape: 2}", 5e5, 0.02, 0, math.Inf(1)},
		{"{dist: weibull, scale: 1MB, shape: 1.5}", 1e6 * math.Gamma(1+1/1.5), 0.02, 0, math.Inf(1)},
		{"{dist: normal, mean: 2MB, stddev: 100KB}", 2e6, 0.01, 0, math.Inf(1)},
		{"{dist: pareto, scale: 100KB, alpha: 3}", 1.5e5, 0.03, 1e5, math.Inf(1)},
		{"{dist: exponential, mean: 1MB, max: 1MB}", 1e6 * (1 - math.Exp(-1)), 0.02, 0, 1e6},
	} {
		t.Run(c.life, func(t *testing.T) {
			one := oneLifetimeSpec(t, "200MB", c.life)
			p, err := one.Generate(GenerateOptions{Seed: 9})
			require.NoError(t, err)
			sum, n := 0.0, 0
			for i := range p.Birth {
				if p.AliveAtEnd(i) {
					continue // clamped by the end of the run
				}
				l := float64(p.Death[i] - p.Birth[i])
				if l < c.min-1 || l > c.max {
					t.Fatalf("record %d lives %v bytes, outside [%v, %v]", i, l, c.min, c.max)
				}
				sum += l
				n++
			}
			require.Greater(t, n, p.Len()*95/100)
			assert.InEpsilon(t, c.mean, sum/float64(n), c.tol+1e-12)
		})
	}

	p, err := s.Generate(GenerateOptions{Seed: 2})
	require.NoError(t, err)
	require.NoError(t, p.Validate())
	bounds := genPhaseBounds(t, s, GenerateOptions{Seed: 2})
	end := p.Meta.EndBytes
	// In the second phase (the second half of the run): a quarter of the records die at its end
	// (= the end of the run); a quarter live 10 % of the run, except those born in the last
	// 10 % of the run (a fifth of the phase), which reach the end.
	var atEnd, tenth, second int
	for i := range p.Birth {
		if p.Birth[i] < bounds[1][0] {
			continue
		}
		second++
		switch l := p.Death[i] - p.Birth[i]; {
		case p.Death[i] == end:
			atEnd++
			if !p.AliveAtEnd(i) {
				t.Fatalf("record %d dies at the end but is not flagged alive at end", i)
			}
		case l == uint64(0.1*float64(end)):
			tenth++
		}
	}
	assert.InDelta(t, 0.25+0.25*0.2, float64(atEnd)/float64(second), 0.01)
	assert.InDelta(t, 0.25*0.8, float64(tenth)/float64(second), 0.01)
}

// TestGenerateRestOfRun checks that a uniform lifetime without max spreads deaths uniformly
// between the birth and the end of the run.
func TestGenerateRestOfRun(t *testing.T) {
	s := oneLifetimeSpec(t, "500MB", "{dist: uniform}")
	p, err := s.Generate(GenerateOptions{Seed: 4})
	require.NoError(t, err)
	sum := 0.0
	for i := range p.Birth {
		rest := float64(p.Meta.EndBytes - p.Birth[i])
		if rest < 1e6 {
			continue
		}
		sum += float64(p.Death[i]-p.Birth[i]) / rest
	}
	assert.InDelta(t, 0.5, sum/float64(p.Len()), 0.01, "death at a uniform fraction of the remaining run")
}

func TestGeneratePhasesInOrder(t *testing.T) {
	s, err := BundledSpec("compiler-phases")
	require.NoError(t, err)
	opts := GenerateOptions{Seed: 11, Resolution: 0.001}
	p, err := s.Generate(opts)
	require.NoError(t, err)
	bounds := genPhaseBounds(t, s, opts)
	require.Len(t, bounds, 4)
	for k := 1; k < len(bounds); k++ {
		assert.Equal(t, bounds[k-1][1], bounds[k][0], "phases are contiguous")
	}
	phaseOf := func(at uint64) int {
		for k, b := range bounds {
			if at < b[1] {
				return k
			}
		}
		return len(bounds)
	}
	classes := make([]map[string]bool, len(bounds))
	for k := range classes {
		classes[k] = map[string]bool{}
	}
	codegenEnd := bounds[2][1]
	for i := range p.Birth {
		k := phaseOf(p.Birth[i])
		classes[k][p.ClassName(i)] = true
		switch p.ClassName(i) {
		case "ASTNode", "Symbol":
			assert.Equal(t, codegenEnd, p.Death[i], "AST and symbols die when codegen ends")
		case "IRNode":
			assert.Equal(t, bounds[2][1], p.Death[i], "IR dies at the end of its own phase")
		case "CompiledMethod":
			assert.True(t, p.AliveAtEnd(i))
		}
	}
	assert.True(t, classes[0]["Token"] && classes[0]["ASTNode"] && !classes[0]["Symbol"], "parse")
	assert.True(t, classes[1]["Symbol"] && !classes[1]["Token"], "analyse")
	assert.True(t, classes[2]["IRNode"] && !classes[2]["Symbol"], "codegen")
	assert.True(t, classes[3]["CompiledMethod"] && !classes[3]["IRNode"], "link")
}

func TestGenerateLargeAndContainers(t *testing.T) {
	s := genSpec(t, `name: large
resolution: 0.01
classes:
  - {name: Temp, size: 32}
  - {name: Buffer, size: 24MB}
  - {name: Pinned, size: 4KiB}
  - {name: Table, size: 64}
phases:
  - name: warm
    allocate: 100MB
    mix: [{class: Temp, share: 1, lifetime: immediate}]
    containers:
      - {class: Table, slots: 2000000, at: start, receives: phase}
      - {class: Table, size: 1KiB, count: 3, at: even, receives: life, oldSpace: true, lifetime: {dist: fixed, value: 50MB}}
  - name: work
    allocate: 1GB
    mix: [{class: Temp, share: 1, lifetime: immediate}]
    large:
      - {class: Buffer, count: 100, lifetime: {dist: fixed, value: 10MB}}
      - {class: Pinned, count: 5, at: start}
      - {class: Buffer, size: 500KB, count: 10, every: 100MB, lifetime: immediate}
`)
	opts := GenerateOptions{Seed: 3}
	p, err := s.Generate(opts)
	require.NoError(t, err)
	bounds := genPhaseBounds(t, s, opts)
	var buffers, pinned, mid []int
	for i := range p.Birth {
		switch {
		case p.ClassName(i) == "Buffer" && p.SizeBytes[i] == 24_000_000:
			buffers = append(buffers, i)
		case p.ClassName(i) == "Buffer":
			mid = append(mid, i)
		case p.ClassName(i) == "Pinned":
			pinned = append(pinned, i)
		}
	}
	require.Len(t, buffers, 100)
	require.Len(t, pinned, 5)
	require.Len(t, mid, 10)
	for _, i := range buffers {
		assert.Equal(t, uint32(1), p.Weight[i])
		assert.Zero(t, p.Flags[i]&profile.FlagOldSpace, "over the slot limit: old space by size, no flag")
		assert.Equal(t, uint64(10_000_000), p.Death[i]-p.Birth[i])
	}
	for _, i := range append(pinned, mid...) {
		assert.NotZero(t, p.Flags[i]&profile.FlagOldSpace, "under the slot limit: flagged")
	}
	for _, i := range pinned {
		assert.Equal(t, bounds[1][0], p.Birth[i]-uint64(slices.Index(pinned, i))*4096, "at: start")
		assert.True(t, p.AliveAtEnd(i), "default lifetime: until-end")
	}
	// Spread evenly: buffer k at (k + 0.5)/100 of the phase's mix allocation.
	for k, i := range buffers {
		mixBefore := float64(p.Birth[i] - bounds[1][0] - extrasBefore(p, bounds[1][0], p.Birth[i]))
		assert.InDelta(t, (float64(k)+0.5)/100*1e9, mixBefore, 4000, "buffer %d", k)
	}
	// every: 100MB → after 100, 200, ... MB of mix.
	for k, i := range mid {
		mixBefore := float64(p.Birth[i] - bounds[1][0] - extrasBefore(p, bounds[1][0], p.Birth[i]))
		assert.InDelta(t, float64(k+1)*1e8, mixBefore, 4000, "every %d", k)
	}

	require.Len(t, p.Containers, 4)
	big := p.Containers[0]
	assert.Equal(t, uint32(16_000_016), p.SizeBytes[big.Record], "2,000,000 slots + 16-byte header")
	assert.Equal(t, p.Birth[big.Record], big.StoresFromBytes)
	assert.Equal(t, bounds[0][1], big.StoresUntilBytes, "receives: phase")
	assert.True(t, p.AliveAtEnd(int(big.Record)))
	for _, c := range p.Containers[1:] {
		r := int(c.Record)
		assert.Equal(t, "Table", p.ClassName(r))
		assert.Equal(t, uint32(1024), p.SizeBytes[r])
		assert.Equal(t, p.Birth[r], c.StoresFromBytes)
		assert.Equal(t, p.Death[r], c.StoresUntilBytes, "receives: life")
		assert.Equal(t, uint64(50_000_000), p.Death[r]-p.Birth[r])
		assert.NotZero(t, p.Flags[r]&profile.FlagOldSpace)
	}
}

// extrasBefore sums the sizes of the weight-1 records born in [from, to).
func extrasBefore(p *profile.Profile, from, to uint64) uint64 {
	var n uint64
	for i := range p.Birth {
		if p.Birth[i] >= from && p.Birth[i] < to && p.Weight[i] == 1 {
			n += uint64(p.SizeBytes[i])
		}
	}
	return n
}

func TestGenerateGrowing(t *testing.T) {
	for _, tc := range []struct {
		name, fill string
		fillBytes  float64
	}{
		{"full at the end", "", 1 << 20},
		// An OrderedCollection of 100,000 elements at the end of the phase: its last array
		// (131,072 slots) comes when the 65,536-slot one is full, at 65,536/100,000 of the
		// phase, not at half of it.
		{"filled to 100,000 slots", ", fill: 800016", 800016},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := genSpec(t, `name: grow
resolution: 0.1
classes: [{name: Temp, size: 32}, {name: Array, size: 64}]
phases:
  - name: p
    allocate: 100MB
    mix: [{class: Temp, share: 1, lifetime: immediate}]
    growing:
      - {class: Array, count: 2, from: 1KiB, to: 1MiB, container: true`+tc.fill+`}
`)
			p, err := s.Generate(GenerateOptions{Seed: 1})
			require.NoError(t, err)
			var steps []int
			for i := range p.Birth {
				if p.ClassName(i) == "Array" {
					steps = append(steps, i)
				}
			}
			require.Len(t, steps, 2*11, "1 KiB to 1 MiB doubling: 11 arrays per collection")
			require.Len(t, p.Containers, 22)
			// The two collections grow side by side: steps come in pairs of equal size. Each
			// step doubles the slots, as OrderedCollection>>growAtLast does (127 slots in
			// 1 KiB, 254 in the next array, ...), the last is `to`.
			size := func(j int) uint64 {
				if j == 10 {
					return 1 << 20
				}
				return profile.ObjectBytesForSlots(127 << j)
			}
			for j := 0; j < 11; j++ {
				a, b := steps[2*j], steps[2*j+1]
				assert.Equal(t, uint32(size(j)), p.SizeBytes[a], "step %d", j)
				assert.Equal(t, p.SizeBytes[a], p.SizeBytes[b])
				if j < 10 {
					next := steps[2*j+2]
					// Dies when its successor is allocated (to within one mix record).
					assert.InDelta(t, float64(p.Birth[next]), float64(p.Death[a]), 10*32+1)
					assert.LessOrEqual(t, p.Death[a], p.Birth[next])
					// Step j+1 comes when the content fills step j: at size(j)/fill of the phase.
					want := float64(size(j)) / tc.fillBytes * 1e8
					assert.InDelta(t, want, float64(p.Birth[next]-extrasBefore(p, 0, p.Birth[next])), 400)
				} else {
					assert.True(t, p.AliveAtEnd(a))
				}
			}
			for _, c := range p.Containers {
				assert.Equal(t, p.Birth[c.Record], c.StoresFromBytes)
				assert.Equal(t, p.Death[c.Record], c.StoresUntilBytes)
			}
		})
	}
}

func TestGenerateTooManyRecords(t *testing.T) {
	s, err := BundledSpec("dataframe-3.1gb")
	require.NoError(t, err)
	_, err = s.Generate(GenerateOptions{Resolution: 1})
	require.ErrorIs(t, err, ErrTooManyRecords)
	assert.ErrorContains(t, err, "workload dataframe-3.1gb at resolution 1 would produce about 3.07e+08 records, more than the 50000000 allowed: use a coarser resolution (e.g. 0.082)")
	_, err = s.Generate(GenerateOptions{MaxRecords: 1000})
	assert.ErrorIs(t, err, ErrTooManyRecords)
	_, err = s.Generate(GenerateOptions{Resolution: 2})
	assert.ErrorContains(t, err, "resolution 2 is not a number of records per real object")
	// Many large objects count too.
	big := genSpec(t, `name: big
classes: [{name: A, size: 1MB}]
phases:
  - name: p
    large: [{class: A, count: 2000000000}]
`)
	_, err = big.Generate(GenerateOptions{})
	assert.ErrorIs(t, err, ErrTooManyRecords)
}

// TestBundled checks every bundled workload: it parses, generates a valid Profile at its
// default resolution whose record count EstimateRecords predicted, with containers whose store
// intervals lie within their object's life.
func TestBundled(t *testing.T) {
	infos := Bundled()
	var names []string
	for _, w := range infos {
		names = append(names, w.Name)
	}
	assert.True(t, slices.IsSorted(names))
	for _, want := range []string{"dataframe-500mb", "dataframe-1.6gb", "dataframe-3.1gb", "request-server", "cache-churn", "compiler-phases"} {
		assert.Contains(t, names, want)
	}
	for _, w := range infos {
		if !strings.HasPrefix(w.Name, "dataframe-") {
			t.Run(w.Name, func(t *testing.T) { checkBundled(t, w) })
		}
	}
}

// TestLongBundledDataFrame is TestBundled for the DataFrame workloads (big: slow under the
// race detector, so run without it, README).
func TestLongBundledDataFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the three DataFrame workloads (slow under the race detector): runs without -short")
	}
	for _, w := range Bundled() {
		if strings.HasPrefix(w.Name, "dataframe-") {
			t.Run(w.Name, func(t *testing.T) { checkBundled(t, w) })
		}
	}
}

// checkBundled checks one bundled workload: its description, its spec, and the profile it
// generates against the estimate.
func checkBundled(t *testing.T, w WorkloadInfo) {
	assert.NotEmpty(t, w.Description)
	assert.NotRegexp(t, `^spec[: ]`, w.Description, "the spec must parse")
	s, err := BundledSpec(w.Name)
	require.NoError(t, err)
	assert.Equal(t, w.Name, s.Name, "file name and spec name agree")
	p, err := s.Generate(GenerateOptions{Seed: 1})
	require.NoError(t, err)
	require.NoError(t, p.Validate())
	assert.InEpsilon(t, float64(w.Records), float64(p.Len()), 0.02, "estimate vs generated")
	assert.LessOrEqual(t, p.Len(), 10_000_000)
	for _, c := range p.Containers {
		r := int(c.Record)
		assert.LessOrEqual(t, p.Birth[r], c.StoresFromBytes)
		assert.LessOrEqual(t, c.StoresFromBytes, c.StoresUntilBytes)
		assert.LessOrEqual(t, c.StoresUntilBytes, p.Death[r])
	}
	objects, bytes := genLongLived(p, 0.05)
	t.Logf("%s: %d records, %.1f%% of objects and %.1f%% of bytes long-lived, %d containers",
		w.Name, p.Len(), 100*objects, 100*bytes, len(p.Containers))
}

func TestBundledSpecUnknown(t *testing.T) {
	_, err := BundledSpec("dataframe-2gb")
	require.Error(t, err)
	assert.ErrorContains(t, err, `spec: unknown workload "dataframe-2gb" (bundled: cache-churn, compiler-phases, dataframe-1.6gb, dataframe-3.1gb, dataframe-500mb`)
	for _, bad := range []string{"", "../workloads/request-server", "workloads/request-server"} {
		_, err := BundledSpec(bad)
		assert.ErrorContains(t, err, "unknown workload", "%q", bad)
	}
}

// TestLongWorkloadDataframe500mbCodePath checks what dataframe-500mb takes from DataFrame's code
// (the spec's comments): the kept data is what reading allocates (734,736 rows × 48 B and the
// cells' 558,389,440 B, alive to the end), type detection's garbage dies within a parse, the
// code makes 21 column-sized allocations straight into old space, and the young allocation is
// (266 scavenges + 4.5 inner-scavenge edens) × 11,780,725 bytes.
func TestLongWorkloadDataframe500mbCodePath(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the 500 MB DataFrame workload (slow under the race detector): runs without -short")
	}
	s, err := BundledSpec("dataframe-500mb")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Seed: 1})
	require.NoError(t, err)
	var young, keptYoung, shortObjects float64
	direct := 0
	for i := range p.Birth {
		bytes := float64(p.Weight[i]) * float64(p.SizeBytes[i])
		if p.SizeBytes[i] > profile.MaxNewSpaceObjectBytes || p.Flags[i]&profile.FlagOldSpace != 0 {
			direct += int(p.Weight[i])
			continue
		}
		young += bytes
		if p.Flags[i]&profile.FlagAliveAtEnd != 0 {
			keptYoung += bytes
		}
		if p.Death[i]-p.Birth[i] <= 128 {
			shortObjects += float64(p.Weight[i])
		}
	}
	assert.InEpsilon(t, 267.5*11_780_725, young, 0.01, "young allocation")
	assert.InEpsilon(t, 593_656_768.0, keptYoung, 0.03, "kept young bytes: rows and cells")
	assert.Equal(t, 21, direct, "column-sized allocations")
	// Rows and cells (4.4 M objects) are kept; every other small object is parsing garbage.
	assert.InEpsilon(t, p.Objects()-4_408_416, shortObjects, 0.02, "parsing garbage dies within its parse")
}

// TestWorkloadDataframeYoungBytes checks that each DataFrame workload allocates in new space
// what its published scavenge count implies at a 16 MiB new space.
func TestWorkloadDataframeYoungBytes(t *testing.T) {
	// Published scavenges plus half an eden for each full GC that follows young allocation
	// (the inner scavenge empties eden without being counted): see each spec's comments.
	for name, scavenges := range map[string]float64{"dataframe-500mb": 266 + 1.5, "dataframe-1.6gb": 304 + 3, "dataframe-3.1gb": 1143 + 51.5} {
		s, err := BundledSpec(name)
		require.NoError(t, err)
		young := 0.0
		for i := range s.Phases {
			young += float64(s.phaseMixBytes(i))
		}
		assert.InEpsilon(t, scavenges*11_780_725, young, 1e-6, name)
	}
}

// TestLongWorkloadDataframe31gbRecords enforces the records budget of the biggest workload.
func TestLongWorkloadDataframe31gbRecords(t *testing.T) {
	s, err := BundledSpec("dataframe-3.1gb")
	require.NoError(t, err)
	est := s.EstimateRecords(0)
	assert.LessOrEqual(t, est, 9.5e6, "estimate, with margin")
	if testing.Short() {
		t.Skip("generation skipped in -short mode")
	}
	p, err := s.Generate(GenerateOptions{Seed: 1})
	require.NoError(t, err)
	assert.LessOrEqual(t, p.Len(), 10_000_000, "dataframe-3.1gb must stay within 10 M records at its default resolution")
}

func ExampleBundledSpec() {
	spec, err := BundledSpec("dataframe-500mb")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ph := range spec.Phases {
		fmt.Printf("%s: %d%% of the young allocation\n", ph.Name, int(math.Round(100*ph.AllocateFraction)))
	}
	p, err := spec.Generate(GenerateOptions{Seed: 1, Resolution: 0.0001})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Meta.Source, p.Meta.ReportedScavenges, len(p.Containers))
	// Output:
	// read rows: 19% of the young allocation
	// detect types: 81% of the young allocation
	// workload:dataframe-500mb 266 19
}

// TestSizeTable checks that tabulated sizes follow the exact distribution of the rounded,
// clamped size: each size s collects the probability of (s − 8, s].
func TestSizeTable(t *testing.T) {
	d := &Dist{Kind: "lognormal", MedianBytes: 40, Sigma: 0.9, MinBytes: 20, MaxBytes: 4096}
	g := newSampler(d, false, genSource(1, 0, streamSizes), 0)
	require.True(t, g.table != nil && g.table.tail == int(g.table.pick.n), "a table without a tail")
	const n = 1_000_000
	counts := map[uint32]int{}
	for range n {
		counts[g.sizeBytes()]++
	}
	cdf := g.cdf()
	for _, c := range []struct {
		size uint32
		p    float64
	}{
		{24, cdf(24)},              // everything up to 24, the clamped samples below 20 included
		{32, cdf(32) - cdf(24)},    // (24, 32]
		{40, cdf(40) - cdf(32)},    // (32, 40]
		{48, cdf(48) - cdf(40)},    // (40, 48]
		{200, cdf(200) - cdf(192)}, // the tail
		{4096, 1 - cdf(4088)},      // everything above 4088, clamped samples included
		{16, 0},                    // below the clamp
	} {
		sd := math.Sqrt(c.p * (1 - c.p) / n)
		assert.InDelta(t, c.p, float64(counts[c.size])/n, 5*sd+1e-9, "size %d", c.size)
	}
	assert.InEpsilon(t, g.meanSizeBytes(), genMeanSize(g.sizeBytes), 0.01, "the estimate's mean agrees")
	assert.InEpsilon(t, genMeanSize(g.sizeBytes), genMeanSize(func() uint32 { return roundSize(g.clamp(g.raw())) }), 0.005,
		"the table draws what the distribution draws")

	// A wide distribution: the table holds the first 1024 sizes, the tail bucket the rest.
	w := newSampler(&Dist{Kind: "lognormal", MedianBytes: 2048, Sigma: 0.55, MaxBytes: 1 << 20}, false, genSource(3, 0, streamSizes), 0)
	require.True(t, w.table != nil && w.table.tail == 1024)
	tail := 0
	for range n {
		if w.sizeBytes() > w.table.cutBytes {
			tail++
		}
	}
	pTail := 1 - w.cdf()(float64(w.table.cutBytes))
	assert.InDelta(t, pTail, float64(tail)/n, 5*math.Sqrt(pTail/n))
	assert.InEpsilon(t, genMeanSize(w.sizeBytes), genMeanSize(func() uint32 { return roundSize(w.clamp(w.raw())) }), 0.005)
	// Too much probability beyond the first 1024 sizes: no table.
	u := newSampler(&Dist{Kind: "uniform", MinBytes: 16, MaxBytes: 1 << 20}, false, genSource(3, 0, streamSizes), 0)
	assert.True(t, u.table == nil)

	// Choice sizes are tabulated from their weights.
	ch := newSampler(&Dist{Kind: "choice", ValuesBytes: []float64{20, 24, 1 << 30}, Weights: []float64{1, 1, 2}}, false, genSource(2, 0, streamSizes), 0)
	assert.True(t, ch.table == nil, "range too wide: Categorical")
	ch = newSampler(&Dist{Kind: "choice", ValuesBytes: []float64{20, 24, 100}, Weights: []float64{1, 1, 2}}, false, genSource(2, 0, streamSizes), 0)
	require.NotNil(t, ch.table)
	counts = map[uint32]int{}
	for range n {
		counts[ch.sizeBytes()]++
	}
	assert.InDelta(t, 0.5, float64(counts[24])/n, 0.003, "20 and 24 both round to 24")
	assert.InDelta(t, 0.5, float64(counts[104])/n, 0.003)
}

// genMeanSize is the mean of a million sizes drawn by draw.
func genMeanSize(draw func() uint32) float64 {
	const n = 1_000_000
	sum := 0.0
	for range n {
		sum += float64(draw())
	}
	return sum / n
}

func TestAliasTable(t *testing.T) {
	p := []float64{4, 2, 1, 1, 0, 0.001}
	table := newAliasTable(p)
	src := genSource(5, 0, streamPick)
	const n = 2_000_000
	counts := make([]int, len(p))
	for range n {
		counts[table.index(src.Uint64())]++
	}
	for k, w := range p {
		want := w / 8.001
		assert.InDelta(t, want, float64(counts[k])/n, 5*math.Sqrt(want/n)+1e-12, "index %d", k)
	}
	assert.Zero(t, counts[4], "zero weight: never picked")
}

// TestGenerateStores: storedInto gives each record the newest container of the name alive at
// its store (a growing collection's current array, whose successor takes over), a window on
// its life or from a phase's start, and the pointer-free flag follows the pointers key.
func TestGenerateStores(t *testing.T) {
	src := `
name: stores
classes:
  - {name: Row, size: 808}
  - {name: Value, size: 16, pointers: false}
  - {name: Garbage, size: 48}
phases:
  - name: load
    allocate: 20MB
    mix:
      - {class: Row, share: 0.1, lifetime: until-end, storedInto: {container: rows}}
      - {class: Value, share: 0.1, lifetime: until-end, storedInto: {container: cols, at: build}}
      - {class: Garbage, share: 0.8, lifetime: immediate}
    growing:
      - {class: Row, count: 1, from: 1KB, to: 4MB, factor: 4, name: rows}
  - name: build
    allocate: 10MB
    mix:
      - {class: Value, share: 0.5, lifetime: {dist: exponential, mean: 1MB}, storedInto: {container: cols, from: 0.25, for: 0.5}}
      - {class: Garbage, share: 0.5, lifetime: immediate}
    containers:
      - {class: Row, slots: 100000, count: 3, at: start, receives: none, name: cols, immediates: 0.25}
`
	s, err := Parse([]byte(src), "stores.yaml")
	require.NoError(t, err)
	p, err := s.Generate(GenerateOptions{Seed: 3})
	require.NoError(t, err)
	require.NotNil(t, p.StoredIn)
	buildStart := uint64(0)
	for i := range p.Birth {
		if p.ClassName(i) == "Garbage" {
			assert.Zero(t, p.StoredIn[i])
			assert.Zero(t, p.Flags[i]&profile.FlagPointerFree)
		}
		if p.ClassName(i) == "Value" {
			assert.NotZero(t, p.Flags[i]&profile.FlagPointerFree, "pointers: false")
		}
		if p.Flags[i]&profile.FlagContainer != 0 && p.SizeBytes[i] == uint32(profile.ObjectBytesForSlots(100000)) && buildStart == 0 {
			buildStart = p.Birth[i]
		}
	}
	var rows, loadValues, buildValues int
	for i := range p.Birth {
		st, from, until, ok := p.StoreWindow(i)
		if !ok {
			continue
		}
		c := p.Containers[p.Stores[st].Container]
		holder := c.Record
		switch p.ClassName(i) {
		case "Row":
			rows++
			// The array current at the row's birth: born before it, dead (replaced) after.
			assert.LessOrEqual(t, p.Birth[holder], p.Birth[i])
			assert.True(t, p.Death[holder] > p.Birth[i] || p.AliveAtEnd(int(holder)))
			assert.Equal(t, p.Birth[i], from)
		case "Value":
			assert.InDelta(t, 0.25, c.ImmediateFraction, 1e-6)
			assert.LessOrEqual(t, p.Birth[holder], from, "stored into a container alive at the store")
			if p.Stores[st].AtBytes != 0 {
				loadValues++
				assert.Equal(t, p.Stores[st].AtBytes, from, "load values are stored when the build phase starts")
				assert.Equal(t, p.Death[i], until)
			} else {
				buildValues++
				life := float64(p.Death[i] - p.Birth[i])
				assert.InDelta(t, float64(p.Birth[i])+0.25*life, float64(from), 2)
				assert.InDelta(t, float64(p.Birth[i])+0.75*life, float64(until), 2)
			}
		}
	}
	assert.Positive(t, rows)
	assert.Positive(t, loadValues)
	assert.Positive(t, buildValues)
	// Growing arrays hand their references on.
	var successors int
	for _, c := range p.Containers {
		if c.Successor != 0 {
			successors++
			next := p.Containers[c.Successor-1]
			// The previous dies at the next one's planned birth; the actual birth follows within
			// a mix record or two.
			assert.LessOrEqual(t, p.Death[c.Record], p.Birth[next.Record])
			assert.Less(t, p.Birth[next.Record]-p.Death[c.Record], uint64(64<<10), "the next array is born when the previous dies")
		}
	}
	assert.Positive(t, successors)
}
